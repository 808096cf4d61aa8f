/**
 * MIDI messages as a `midi` connection names them: a channel message by its parameter id
 * (`<status>/<data1>` or `<status>`), and a system exclusive message written as hex.
 */

/** A parameter id: `<status>/<data1>`, or `<status>` for a message of one data byte. */
export const ID = /^(\d{1,3})(?:\/(\d{1,3}))?$/;

/** The data bytes of a channel message by its kind (the status's high nibble): two, or one. */
export const dataBytes = (status: number) => (status >= 0xc0 && status <= 0xdf ? 1 : 2);

/** What is wrong with a parameter id written in `parameters`, or undefined. */
export function idProblem(id: string): string | undefined {
  const match = ID.exec(id);
  const status = Number(match?.[1]);
  if (!match || status < 0x80 || status > 0xef) return 'expected <status>/<data1> or <status>, the status a channel message (128–239)';
  const data1 = match[2];
  if (dataBytes(status) === 1 && data1 !== undefined) return `a message of status ${status} has one data byte: "${status}" holds it`;
  if (dataBytes(status) === 2 && data1 === undefined) return `a message of status ${status} has two data bytes: "${status}/<data1>"`;
  if (data1 !== undefined && Number(data1) > 127) return 'a data byte is 0–127';
  return undefined;
}

/** The bytes of a system exclusive message written as hex (spaces allowed), or what is wrong with it. */
export function sysexBytes(text: string): number[] | string {
  const hex = text.replace(/\s+/g, '');
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) return 'a system exclusive message is hex bytes, such as "F0 7E 7F 06 01 F7"';
  const bytes = hex.match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? [];
  if (bytes[0] !== 0xf0 || bytes.at(-1) !== 0xf7) return 'a system exclusive message starts with F0 and ends with F7';
  if (bytes.slice(1, -1).some((byte) => byte > 0x7f)) return 'the bytes between F0 and F7 are 00–7F';
  return bytes;
}

/** The status and first data byte (none for a message of one) of a parameter id `ID` matches. */
export function channelOf(id: string): { readonly status: number; readonly data1: number | undefined } {
  const match = ID.exec(id) as RegExpExecArray;
  return { status: Number(match[1]), data1: match[2] === undefined ? undefined : Number(match[2]) };
}

/** The parameter id a channel message heard sets, and its value: the message's last data byte. */
export function heardValue([status = 0, data1 = 0, data2 = 0]: readonly number[]): { readonly id: string; readonly value: number } {
  return dataBytes(status) === 1 ? { id: String(status), value: data1 } : { id: `${status}/${data1}`, value: data2 };
}
