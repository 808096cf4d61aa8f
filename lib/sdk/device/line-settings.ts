/**
 * The settings every line-protocol type (R-N1, R-N2) has beside those of its transport, as
 * its schema: how frames look, what received frames set, what writes and polls send.
 * What they mean is read from them by `line-protocol.ts`.
 */
import { Type } from '@sinclair/typebox';
import type { ParameterMeta } from '../../core/parameter-meta.ts';
import { describeSetting, parameterLinesSetting } from '../parameter-lines.ts';
import { withDefault } from '../settings.ts';
import type { Encoding } from './framing.ts';

export const DEFAULT_DELIMITER = '\r\n';

/** The settings every line-protocol type has, beside those of its transport. */
export const lineSettings = {
  parameters: parameterLinesSetting(
    "The device's parameters, one per line as a dummy has them: <parameter id>[,<type>[,<default value>]]; out/{0..39},I declares out/0 … out/39. A parameter that a `send` entry names takes writes; the others are read-only.",
  ),
  describe: describeSetting,
  delimiter: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 16,
      description:
        'What ends each frame, in the connection\'s encoding (hex digits for hex). "\\r\\n" when neither `length` nor `lengthPrefix` is given.',
    }),
  ),
  length: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65_536, description: 'Frames of this many bytes each, in place of a delimiter.' }),
  ),
  lengthPrefix: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(4)], {
      description: 'Frames that begin with their length in this many bytes, big-endian, in place of a delimiter; sent frames get one.',
    }),
  ),
  encoding: withDefault(
    Type.Union([Type.Literal('utf8'), Type.Literal('latin1'), Type.Literal('hex')], {
      description: "How a frame's bytes read as text: what patterns match and frames are written in. hex: two digits a byte.",
    }),
    'utf8',
  ),
  maxFrameBytes: withDefault(
    Type.Integer({
      minimum: 16,
      maximum: 16 * 1024 * 1024,
      description: 'The largest frame taken (R-G4); larger ones are dropped and counted, and the connection is degraded for a minute.',
    }),
    65_536,
  ),
  maxFramesPerSecond: withDefault(
    Type.Integer({
      minimum: 1,
      description:
        'Frames handled in one second at most (R-G4); past it frames are dropped and counted, and the connection is degraded for a minute.',
    }),
    10_000,
  ),
  receive: withDefault(
    Type.Array(
      Type.Object(
        {
          match: Type.String({
            minLength: 1,
            description: 'An RE2 expression tried on each frame, unanchored: (?P<name>…) or (?<name>…) are named groups.',
          }),
          each: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'An RE2 expression tried on the whole frame once `match` matched it: `set` applies for each of its matches, with its named groups beside those of `match` (the lines of a block: "(?m)^(?P<dst>\\d+) (?P<src>\\d+)$").',
            }),
          ),
          set: Type.Record(Type.String(), Type.String(), {
            description:
              'Parameter id → value, when the frame matches; $name in either stands for the named group (an id with $name names the parameter by what the frame says). "" fires a trigger.',
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 256, description: 'What received frames mean: the first entry whose pattern matches a frame applies.' },
    ),
    [],
  ),
  send: withDefault(
    Type.Array(
      Type.Object(
        {
          parameter: Type.String({
            minLength: 1,
            description: 'The parameter whose accepted writes send this frame; with a range (out/{0..39}), each parameter of the range.',
          }),
          frame: Type.String({
            description:
              "The frame as written on the wire (with its delimiter: \"VOL $VALUE\\r\\n\"); $VALUE stands for the written value, $1 for the number of the parameter's first range ($2 the second's), $TOKEN for the fencing token it goes out under (the redundancy group's epoch, on etcd the election's revision; 0 outside a group): a device that keeps the highest it saw can refuse an older driver's commands.",
          }),
          values: Type.Optional(
            Type.Record(Type.String(), Type.String(), {
              description: 'What $VALUE becomes for a value, by its text ("true": "ON"); values not listed are written as their text.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1024, description: 'What a write of a parameter sends.' },
    ),
    [],
  ),
  poll: withDefault(
    Type.Array(
      Type.Object(
        {
          frame: Type.String({ minLength: 1, description: 'The frame to send, as written on the wire.' }),
          every: Type.Integer({ minimum: 50, description: 'Milliseconds between sends, while the link is up.' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 64, description: 'Frames sent again and again, to ask the device for its state.' },
    ),
    [],
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 1, maximum: 60_000, description: 'Milliseconds a write may wait for the transport to take it (R-G1).' }),
    2000,
  ),
};

/** The shared settings as the schema fills them in. */
export interface LineSettingsWritten {
  readonly parameters: string | readonly string[];
  readonly describe?: Readonly<Record<string, ParameterMeta>>;
  readonly delimiter?: string;
  readonly length?: number;
  readonly lengthPrefix?: 1 | 2 | 4;
  readonly encoding: Encoding;
  readonly maxFrameBytes: number;
  readonly maxFramesPerSecond: number;
  readonly receive: readonly { readonly match: string; readonly each?: string; readonly set: Readonly<Record<string, string>> }[];
  readonly send: readonly { readonly parameter: string; readonly frame: string; readonly values?: Readonly<Record<string, string>> }[];
  readonly poll: readonly { readonly frame: string; readonly every: number }[];
  readonly timeout: number;
}
