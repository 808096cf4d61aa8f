/**
 * What every part of the ATEM switcher simulator shares: a command's frame, a decoded client
 * command's fields, and the shape of an area of the switcher (keyers, media, audio …), which
 * has its own state, sends it whole on connect and applies the client commands that are its.
 */

export type Fields = Record<string, number | string | boolean>;
export type Decoder = (b: Buffer, version: number) => Fields;

/** One command: uint16 length (the 8-byte header included), two zero bytes, four ASCII letters, the body. */
export function frame(name: string, size: number, write: (body: Buffer) => void = () => {}): Buffer {
  const command = Buffer.alloc(8 + size);
  command.writeUInt16BE(8 + size, 0);
  command.write(name, 4, 4, 'ascii');
  write(command.subarray(8));
  return command;
}

/** A source id as the switcher writes it: two bytes, big-endian. */
export const source16 = (b: Buffer, at: number, source: number) => b.writeUInt16BE(source, at);

/** What an area is handed: to send state later (an auto's end), and to run something after a time in place of what was pending. */
export interface AreaTools {
  transmit(commands: readonly Buffer[]): void;
  later(key: string, ms: number, finish: () => void): void;
  /** Whether an id is one of the switcher's inputs. */
  isInput(id: number): boolean;
}

export interface Area {
  /** Its state as the switcher sends it on connect, after the topology. */
  dump(version: number): Buffer[];
  /** A client's (or the panel's) command: the state it changed, or `undefined` when it is not this area's. */
  apply(name: string, fields: Fields, version: number): Buffer[] | undefined;
}
