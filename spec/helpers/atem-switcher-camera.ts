/**
 * The switcher simulator's camera control: the commands a client sends to the cameras on its
 * inputs (`CCmd`: camera, category, parameter, absolute or an offset, the data type and its
 * values), decoded and kept in the order they came. A real switcher passes them on to the
 * cameras and relays what they report (`CCdP`): here each absolute command is taken by a
 * camera that is always there, and reported back as it was set (an offset is not: the
 * simulator keeps no camera's state). The decoder and encoder are checked against the
 * library's own `CameraControlCommand` serialize and `CameraControlUpdateCommand` deserialize
 * in atem-switcher-breadth.spec.ts.
 */
import type { Area, Decoder, Fields } from './atem-switcher-wire.ts';
import { frame } from './atem-switcher-wire.ts';

/** The protocol's data types, as the library's CameraControlDataType numbers them. */
export const TYPES: Record<number, string> = {
  0: 'bool',
  1: 'int8',
  2: 'int16',
  3: 'int32',
  4: 'int64',
  5: 'string',
  128: 'fixed16',
};

/** One command to a camera, as the switcher read it; values as numbers (a fixed16 in units, a bool 0 or 1). */
export type CameraCommand = { camera: number; category: number; parameter: number; relative: boolean; type: string; values: number[] };

const typeOf = (name: string) => Number(Object.keys(TYPES).find((type) => TYPES[Number(type)] === name) ?? 1);

export const encode = {
  // uint8 camera, category, parameter, type; counts of 8-, 16-, 32- and 64-bit values at 4, 6, 8, 10; the values from 16.
  CCdP: (c: CameraCommand) => {
    const type = typeOf(c.type);
    const width = type <= 1 ? 1 : type === 2 || type === 128 ? 2 : type === 3 ? 4 : 8;
    return frame('CCdP', 16 + Math.ceil((c.values.length * width) / 8) * 8, (b) => {
      b.set([c.camera, c.category, c.parameter, type]);
      b.writeUInt16BE(c.values.length, width === 1 ? 4 : width === 2 ? 6 : width === 4 ? 8 : 10);
      c.values.forEach((v, i) => {
        if (width === 1) b.writeInt8(v, 16 + i);
        else if (width === 2) b.writeInt16BE(type === 128 ? Math.round(v * 2048) : v, 16 + 2 * i);
        else if (width === 4) b.writeInt32BE(v, 16 + 4 * i);
        else b.writeBigInt64BE(BigInt(v), 16 + 8 * i);
      });
    });
  },
};

export const decode: Record<string, Decoder> = {
  // uint8 camera, category, parameter, operation (1: an offset), type; counts of 8-, 16-, 32- and 64-bit values at 6, 8, 10, 12; the values from 16.
  CCmd: (b) => {
    const type = b[4]!;
    const values: number[] = [];
    const count = (at: number) => b.readUInt16BE(at);
    if (type === 0 || type === 1) for (let i = 0; i < count(6); i++) values.push(b.readInt8(16 + i));
    else if (type === 2 || type === 128)
      for (let i = 0; i < count(8); i++) values.push(b.readInt16BE(16 + 2 * i) / (type === 128 ? 2048 : 1));
    else if (type === 3) for (let i = 0; i < count(10); i++) values.push(b.readInt32BE(16 + 4 * i));
    else if (type === 4) for (let i = 0; i < count(12); i++) values.push(Number(b.readBigInt64BE(16 + 8 * i)));
    return {
      camera: b[0]!,
      category: b[1]!,
      parameter: b[2]!,
      relative: b[3] === 1,
      type: TYPES[type] ?? String(type),
      values: values.join(' '),
    };
  },
};

export class CameraControl implements Area {
  /** Every camera command, in order. */
  readonly commands: CameraCommand[] = [];

  dump(): Buffer[] {
    return [];
  }

  apply(name: string, f: Fields): Buffer[] | undefined {
    if (name !== 'CCmd') return undefined;
    const values = String(f['values'] ?? '');
    const command: CameraCommand = {
      camera: Number(f['camera']),
      category: Number(f['category']),
      parameter: Number(f['parameter']),
      relative: f['relative'] === true,
      type: String(f['type']),
      values: values === '' ? [] : values.split(' ').map(Number),
    };
    this.commands.push(command);
    // An instant action (a bool with no value) and an offset report nothing here.
    return command.relative || command.values.length === 0 || command.type === 'string' ? [] : [encode.CCdP(command)];
  }
}
