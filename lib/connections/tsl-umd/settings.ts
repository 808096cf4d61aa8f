/**
 * What a `tsl-umd` connection is written as (its settings) and what it runs with, the
 * parameters each display has in either version, and how a display is named in `displays`
 * and matched by a packet.
 */
import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import {
  allowSetting,
  appliesWhen,
  type Checked,
  checked,
  connectTimeoutSetting,
  type Issue,
  type ParameterMeta,
  type Parsed,
  Peers,
  type Value,
  type ValueType,
  withDefault,
  listenAddressSetting,
  portSetting,
} from '../../sdk/index.ts';
import { EVERY, V31_MAX_ADDRESS } from './packets.ts';

/** When a setting matters: in one mode of the two (the console's form shows it then). */
const SEND = { mode: ['send'] } as const;
const RECEIVE = { mode: ['receive'] } as const;

export const tslUmdSettings = Type.Object({
  version: Type.Union([Type.Literal('3.1'), Type.Literal('5.0')], { description: 'The TSL UMD protocol version: "3.1" or "5.0".' }),
  mode: Type.Union([Type.Literal('receive'), Type.Literal('send')], {
    description: 'receive: listen for displays a tally source sends. send: send the listed displays to a device.',
  }),
  transport: withDefault(
    Type.Union([Type.Literal('udp'), Type.Literal('tcp')], { description: 'udp, or tcp (v5.0 only, DLE/STX framed).' }),
    'udp',
  ),
  port: portSetting('receive: the port the hub listens on (0 takes any free one). send: the port of the device.', { anyFree: true }),
  bindIp: appliesWhen(RECEIVE, listenAddressSetting('receive: the address to listen on; "" listens on every address.')),
  host: withDefault(
    Type.String({ description: 'send: the device to send to. receive: the only sender taken; "" takes every sender.' }),
    '',
  ),
  // A sender listens to no one: its allow is refused (parseTslUmdSettings).
  allow: appliesWhen(RECEIVE, allowSetting),
  displays: withDefault(
    Type.Array(
      Type.Union([
        Type.Integer(),
        Type.String(),
        Type.Object(
          {
            display: Type.Union([Type.Integer(), Type.String()], { description: 'The display, as above.' }),
            text: Type.String({ description: 'Its text until another is written or heard.' }),
          },
          { additionalProperties: false },
        ),
      ]),
      {
        description:
          'v3.1: display addresses (0–126). v5.0: "<screen>/<index>" (0–65534 each). Either as `{ display, text }` with the text it starts with. send: the displays sent; receive: displays shown before they are heard.',
      },
    ),
    [],
  ),
  repeat: appliesWhen(
    SEND,
    withDefault(
      Type.Integer({
        minimum: 0,
        maximum: 3_600_000,
        description: 'send: milliseconds between repeats of every display; 0 sends only on changes.',
      }),
      0,
    ),
  ),
  connectTimeout: appliesWhen({ ...SEND, transport: ['tcp'] }, connectTimeoutSetting),
  maxDisplays: appliesWhen(
    RECEIVE,
    withDefault(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description:
          'receive: displays made from what is heard at most; past it a new one takes the place of the display heard longest ago, once that one has not been heard for forgetAfter, else of one of the sender holding the most displays while it holds more than the new one’s would, and is dropped otherwise.',
      }),
      1000,
    ),
  ),
  forgetAfter: appliesWhen(
    RECEIVE,
    withDefault(
      Type.Integer({
        minimum: 1000,
        maximum: 86_400_000,
        description:
          'receive: milliseconds a display heard (not one listed in displays) must go unheard before it may give its place to a new one, when maxDisplays are shown.',
      }),
      60_000,
    ),
  ),
  maxClients: appliesWhen(
    { ...RECEIVE, transport: ['tcp'] },
    withDefault(Type.Integer({ minimum: 1, maximum: 1024, description: 'receive over tcp: senders connected at once at most.' }), 16),
  ),
});

/** A connection's settings as it runs: its displays by key, the texts they start with, the senders it lets in. */
export type TslUmdOptions = Omit<Parsed<typeof tslUmdSettings>, 'displays'> & {
  readonly displays: readonly string[];
  readonly texts: Readonly<Record<string, string>>;
  readonly peers: Peers;
};

/** What the schema cannot say: displays named as their version names them, and what each mode needs. */
export function parseTslUmdSettings(written: Parsed<typeof tslUmdSettings>): Checked<TslUmdOptions> {
  const issues: Issue[] = [];
  const displays: string[] = [];
  const texts: Record<string, string> = {};
  for (const [index, entry] of written.displays.entries()) {
    const key = displayKey(written.version, typeof entry === 'object' ? entry.display : entry);
    if (typeof key !== 'string') {
      issues.push({ path: typeof entry === 'object' ? ['displays', index, 'display'] : ['displays', index], message: key.problem });
      continue;
    }
    displays.push(key);
    if (typeof entry === 'object') texts[key] = entry.text;
  }
  if (new Set(displays).size !== displays.length) issues.push({ path: ['displays'], message: 'each display once' });
  if (written.transport === 'tcp' && written.version === '3.1')
    issues.push({ path: ['transport'], message: 'v3.1 travels over UDP only; tcp needs version "5.0"' });
  if (written.mode === 'send') issues.push(...sendMistakes(written));
  if (written.mode === 'receive' && written.host !== '' && !isIP(written.host))
    issues.push({ path: ['host'], message: 'expected the IP address of the only sender taken, or "" for every sender' });
  const peers = Peers.compile(written.allow);
  if (Array.isArray(peers)) issues.push(...peers);
  else if (written.mode === 'send' && written.allow.length > 0)
    issues.push({ path: ['allow'], message: 'allow lists the senders a receiver takes; a sender listens to no one' });
  return checked(issues, { ...written, displays, texts, peers: Array.isArray(peers) ? Peers.anyone : peers });
}

/** What a sender needs: a device, its port, displays to send, repeats not too often. */
function sendMistakes(written: Parsed<typeof tslUmdSettings>): Issue[] {
  const issues: Issue[] = [];
  if (written.host === '') issues.push({ path: ['host'], message: 'expected the device to send to' });
  if (written.port === 0) issues.push({ path: ['port'], message: "expected the device's port" });
  if (written.displays.length === 0) issues.push({ path: ['displays'], message: 'expected the displays to send' });
  if (written.repeat > 0 && written.repeat < 50) issues.push({ path: ['repeat'], message: 'at least 50 ms, or 0 for no repeats' });
  return issues;
}

/** A display's parameter: its id under the display, type, value before anything is heard or written, and what it says of itself (R-PK6). */
export interface Field {
  readonly id: string;
  readonly type: ValueType;
  readonly initial: Value;
  readonly meta?: ParameterMeta;
}

/** A v5.0 tally's colours, as the protocol numbers them: the console shows a lamp's colour by name, and refuses any other. */
const LAMP = [
  { value: 0, label: 'off' },
  { value: 1, label: 'red' },
  { value: 2, label: 'green' },
  { value: 3, label: 'amber' },
];

const COMMON: readonly Field[] = [
  { id: 'text', type: 'S', initial: '', meta: { label: 'Text' } },
  { id: 'brightness', type: 'I', initial: 3, meta: { label: 'Brightness', minimum: 0, maximum: 3, step: 1 } },
];
const SIDES = { rh: 'Right-hand tally', text: 'Text tally', lh: 'Left-hand tally' };
export const FIELDS = {
  '3.1': [...COMMON, ...[1, 2, 3, 4].map((n): Field => ({ id: `tally/${n}`, type: 'B', initial: false, meta: { label: `Tally ${n}` } }))],
  '5.0': [
    ...COMMON,
    ...Object.entries(SIDES).map(
      ([side, label]): Field => ({ id: `tally/${side}`, type: 'I', initial: 0, meta: { label, choices: LAMP } }),
    ),
  ],
} as const;

/** A display's key from a `displays` entry: the address (v3.1) or `<screen>/<index>` (v5.0), or what is wrong. */
export function displayKey(version: '3.1' | '5.0', display: number | string): string | { problem: string } {
  if (version === '3.1') {
    if (typeof display !== 'number' || display < 0 || display > V31_MAX_ADDRESS)
      return { problem: `expected a v3.1 display address, 0–${V31_MAX_ADDRESS}` };
    return String(display);
  }
  const match = typeof display === 'string' ? /^(\d{1,5})\/(\d{1,5})$/.exec(display) : null;
  const [screen, index] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(screen < EVERY && index < EVERY)) return { problem: 'expected a v5.0 display as "<screen>/<index>", each 0–65534' };
  return `${screen}/${index}`;
}

/** Whether display `key` is one that `screen`/`index` names, 0xFFFF naming every one. */
export function matches(key: string, screen: number, index: number): boolean {
  const [keyScreen, keyIndex] = key.split('/').map(Number);
  return (screen === EVERY || screen === keyScreen) && (index === EVERY || index === keyIndex);
}
