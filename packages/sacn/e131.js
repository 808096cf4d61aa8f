// @ts-check
/**
 * E1.31 (streaming ACN) data packets: DMX512 universes over UDP, as ANSI E1.31-2016 lays
 * them out. Each packet carries one universe: the root layer (the sender's CID), the
 * framing layer (its name, priority, sequence, options, universe) and the DMP layer (the
 * start code and up to 512 slots).
 */

/** The sACN port. */
export const SACN_PORT = 5568;
/** Universes a packet may carry. */
export const MIN_UNIVERSE = 1;
export const MAX_UNIVERSE = 63_999;
/** The highest priority a source may send. */
export const MAX_PRIORITY = 200;

const HEADER_BYTES = 126;
const ACN_PID = Buffer.from('ASC-E1.17\0\0\0', 'latin1');
const ROOT_DATA = 0x00000004;
const FRAMING_DATA = 0x00000002;
const DMP_SET_PROPERTY = 0x02;
const ADDRESS_AND_DATA_TYPE = 0xa1;
/** Options bits of the framing layer. */
export const PREVIEW = 0x80;
export const TERMINATED = 0x40;

/**
 * @typedef {object} DataPacket
 * @property {Buffer} cid the sender's 16-byte component id
 * @property {string} sourceName
 * @property {number} priority 0–200
 * @property {number} sequence 0–255
 * @property {number} options PREVIEW, TERMINATED
 * @property {number} universe
 * @property {Buffer} slots the DMX slots after the start code, 1–512 of them
 */

/**
 * A data packet of `slots` (start code 0).
 * @param {Omit<DataPacket, 'slots'> & { slots: Uint8Array }} packet
 */
export function encode(packet) {
  const length = HEADER_BYTES + packet.slots.length;
  const bytes = Buffer.alloc(length);
  bytes.writeUInt16BE(0x0010, 0);
  bytes.writeUInt16BE(0x0000, 2);
  ACN_PID.copy(bytes, 4);
  bytes.writeUInt16BE(0x7000 | (length - 16), 16);
  bytes.writeUInt32BE(ROOT_DATA, 18);
  packet.cid.copy(bytes, 22, 0, 16);
  bytes.writeUInt16BE(0x7000 | (length - 38), 38);
  bytes.writeUInt32BE(FRAMING_DATA, 40);
  // 63 bytes of the name at most, and a NUL.
  Buffer.from(packet.sourceName, 'utf8').subarray(0, 63).copy(bytes, 44);
  bytes.writeUInt8(packet.priority, 108);
  bytes.writeUInt16BE(0, 109);
  bytes.writeUInt8(packet.sequence & 0xff, 111);
  bytes.writeUInt8(packet.options, 112);
  bytes.writeUInt16BE(packet.universe, 113);
  bytes.writeUInt16BE(0x7000 | (length - 115), 115);
  bytes.writeUInt8(DMP_SET_PROPERTY, 117);
  bytes.writeUInt8(ADDRESS_AND_DATA_TYPE, 118);
  bytes.writeUInt16BE(0, 119);
  bytes.writeUInt16BE(1, 121);
  bytes.writeUInt16BE(1 + packet.slots.length, 123);
  bytes.writeUInt8(0, 125);
  Buffer.from(packet.slots).copy(bytes, HEADER_BYTES);
  return bytes;
}

/**
 * A data packet of DMX slots read from a datagram; a string saying why when it is not one
 * (a malformed packet, or another kind: synchronisation, discovery, another start code).
 * @param {Buffer} bytes
 * @returns {DataPacket | string}
 */
export function decode(bytes) {
  if (bytes.length < HEADER_BYTES) return `${bytes.length} bytes, shorter than a data packet`;
  if (bytes.readUInt16BE(0) !== 0x0010 || !bytes.subarray(4, 16).equals(ACN_PID)) return 'not an ACN packet';
  if (bytes.readUInt32BE(18) !== ROOT_DATA) return 'not a data packet (synchronisation or discovery)';
  if (bytes.readUInt32BE(40) !== FRAMING_DATA) return 'not a data packet';
  if (bytes.readUInt8(117) !== DMP_SET_PROPERTY || bytes.readUInt8(118) !== ADDRESS_AND_DATA_TYPE) return 'a DMP layer of another kind';
  if (bytes.readUInt16BE(119) !== 0 || bytes.readUInt16BE(121) !== 1) return 'slots not from the first, one by one';
  const count = bytes.readUInt16BE(123);
  if (count < 1 || count > 513 || bytes.length < HEADER_BYTES - 1 + count) return `a property count of ${count} in ${bytes.length} bytes`;
  if (bytes.readUInt8(125) !== 0) return `start code ${bytes.readUInt8(125)}, not DMX levels`;
  const universe = bytes.readUInt16BE(113);
  if (universe < MIN_UNIVERSE || universe > MAX_UNIVERSE) return `universe ${universe}`;
  const priority = bytes.readUInt8(108);
  if (priority > MAX_PRIORITY) return `priority ${priority}`;
  const name = bytes.subarray(44, 108);
  const end = name.indexOf(0);
  return {
    cid: Buffer.from(bytes.subarray(22, 38)),
    sourceName: name.subarray(0, end < 0 ? 64 : end).toString('utf8'),
    priority,
    sequence: bytes.readUInt8(111),
    options: bytes.readUInt8(112),
    universe,
    slots: Buffer.from(bytes.subarray(HEADER_BYTES, HEADER_BYTES - 1 + count)),
  };
}

/**
 * E1.31 6.7.2: a packet whose sequence is at most 20 behind the last one taken from its
 * source (modulo 256) came out of order, and is not taken.
 * @param {number} last
 * @param {number} next
 */
export function outOfOrder(last, next) {
  const difference = (((next - last) & 0xff) << 24) >> 24;
  return difference <= 0 && difference > -20;
}

/**
 * The multicast group of a universe: 239.255.<high byte>.<low byte>.
 * @param {number} universe
 */
export function groupOf(universe) {
  return `239.255.${universe >> 8}.${universe & 0xff}`;
}
