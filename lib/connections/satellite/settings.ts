/**
 * What a `satellite` connection is written as (its settings), and the checks of `keys` and
 * `allow` that the schema cannot make.
 */
import { Type } from '@sinclair/typebox';
import {
  allowSetting,
  checked,
  compileExpression,
  ExpressionError,
  type Issue,
  type Overruns,
  type Parsed,
  Peers,
  withDefault,
  listenAddressSetting,
  portSetting,
} from '../../sdk/index.ts';

export const COLOR = /^#[0-9a-fA-F]{6}$/;

const color = (description: string) =>
  Type.String({ pattern: COLOR.source, description, expected: 'a colour as #rrggbb, as #e00000 for red' });

const keyBinding = Type.Object(
  {
    device: Type.String({ minLength: 1, description: 'The device, its DEVICEID as the satellite sends it.' }),
    key: Type.Integer({ minimum: 0, description: 'The key, numbered from 0 along the rows.' }),
    show: withDefault(Type.String({ description: 'A parameter the key shows: `on` while it is true (or `is`), `off` otherwise.' }), ''),
    is: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Boolean()], {
        description: 'The value of `show` that lights the key (a router output on its input); true when not given.',
      }),
    ),
    on: withDefault(color('The colour while the key is lit (`show` true, or `is`).'), '#e00000'),
    off: withDefault(color('The colour while the key is not lit.'), '#202020'),
    text: withDefault(Type.String({ description: 'The text on the key; `$(<connection>/<parameter>)` in it shows that value, live.' }), ''),
    textExpression: withDefault(
      Type.Boolean({
        description:
          "`text` is an expression (R-RS2, as Companion's text expressions), and the key shows its value, live: `$(router/output/1) == 3 ? 'LIVE' : 'CAM 3'`.",
      }),
      false,
    ),
    textColor: withDefault(color('The colour of the text.'), '#ffffff'),
    press: withDefault(
      Type.Union([Type.Literal('none'), Type.Literal('toggle'), Type.Literal('momentary'), Type.Literal('fire'), Type.Literal('set')], {
        description: 'What a press does to `target`: toggle it, hold it true while pressed, fire it, or set it to `value`.',
      }),
      'none',
    ),
    target: withDefault(Type.String({ description: 'The parameter a press writes; "" for `show`.' }), ''),
    value: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Boolean()], { description: 'What a `set` press writes to `target`.' }),
    ),
  },
  { additionalProperties: false },
);

/** A deck expected before it has connected: its keys designed in the console by its layout. */
const expectedDevice = Type.Object(
  {
    device: Type.String({
      minLength: 1,
      description: "The device, its DEVICEID as the satellite will send it (a Stream Deck's serial number).",
    }),
    keys: Type.Integer({ minimum: 1, maximum: 1024, description: 'Its keys (a Stream Deck MK.2 15, XL 32, Mini 6, Plus and Neo 8).' }),
    perRow: Type.Integer({ minimum: 1, maximum: 1024, description: 'Its keys a row (MK.2 5, XL 8, Mini 3, Plus and Neo 4).' }),
  },
  { additionalProperties: false },
);

export const satelliteSettings = Type.Object({
  port: withDefault(portSetting('The TCP port satellites connect to; 0 takes any free one.', { anyFree: true }), 16_622),
  bindIp: listenAddressSetting('The address to listen on; "" listens on every address.'),
  allow: allowSetting,
  keys: withDefault(Type.Array(keyBinding, { description: 'Keys bound to parameters, without rules.' }), []),
  devices: withDefault(
    Type.Array(expectedDevice, {
      description: 'Decks expected before they connect, by their layout: the console draws them, so their keys can be designed.',
    }),
    [],
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 1000, maximum: 60_000, description: 'Milliseconds a satellite may stay silent before it is dropped.' }),
    5000,
  ),
  maxClients: withDefault(Type.Integer({ minimum: 1, maximum: 1024, description: 'Satellites connected at once at most.' }), 8),
  maxClientsPerAddress: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 1024,
      description: 'Satellites connected at once from one address at most, so that one machine cannot take every slot.',
    }),
    2,
  ),
  maxDevices: withDefault(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      description:
        'Devices the hub knows at most, there or gone; a new one takes the place of the one gone longest, and is refused while every one is there.',
    }),
    32,
  ),
  maxDevicesPerClient: withDefault(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Devices of one satellite at most; one more is refused.' }),
    8,
  ),
  maxKeys: withDefault(
    Type.Integer({ minimum: 1, maximum: 1024, description: 'Keys of one device at most; a larger one is refused.' }),
    128,
  ),
  maxLineBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      maximum: 16 * 1024 * 1024,
      description: 'Bytes of one line from a satellite; a longer one drops the satellite.',
    }),
    65_536,
  ),
});

/** One entry of `keys`: a key bound to a parameter. */
export type KeyBinding = Parsed<typeof satelliteSettings>['keys'][number];

/**
 * What a satellite may send past its bounds, by kind: devices past `maxDevices` or
 * `maxDevicesPerClient`, keys past `maxKeys`, lines past `maxLineBytes`, bitmaps larger than
 * the hub draws, and device ids another satellite has.
 */
export const OVERRUN_KINDS = ['devices', 'keys', 'lines', 'bitmaps', 'taken'] as const;
export type SatelliteOverruns = Overruns<(typeof OVERRUN_KINDS)[number]>;

/** A satellite connection's settings, parsed. */
export type SatelliteSettings = Extract<ReturnType<typeof parseSatelliteSettings>, { ok: true }>['value'];

export function parseSatelliteSettings(written: Parsed<typeof satelliteSettings>) {
  const issues: Issue[] = [];
  const bound = new Set<string>();
  written.keys.forEach((binding, index) => {
    const key = `${binding.device}\n${binding.key}`;
    if (bound.has(key)) issues.push({ path: ['keys', index, 'key'], message: `key ${binding.key} of ${binding.device} is bound twice` });
    bound.add(key);
    if (binding.press !== 'none' && binding.show === '' && binding.target === '')
      issues.push({ path: ['keys', index, 'press'], message: 'a press needs a parameter: `target`, or `show`' });
    if (binding.textExpression)
      try {
        compileExpression(binding.text, []);
      } catch (error) {
        if (!(error instanceof ExpressionError)) throw error;
        issues.push({ path: ['keys', index, 'text'], message: `not an expression: ${error.message}` });
      }
    if (binding.press === 'set' && binding.value === undefined)
      issues.push({ path: ['keys', index, 'value'], message: 'a press that sets its target needs the value it sets' });
    for (const field of ['show', 'target'] as const)
      if (binding[field] !== '' && !binding[field].includes('/'))
        issues.push({ path: ['keys', index, field], message: 'expected a parameter address, <connection>/<parameter>' });
  });
  const expected = new Set<string>();
  written.devices.forEach(({ device }, index) => {
    if (expected.has(device)) issues.push({ path: ['devices', index, 'device'], message: `${device} is expected twice` });
    expected.add(device);
  });
  const peers = Peers.compile(written.allow);
  if (Array.isArray(peers)) issues.push(...peers);
  return checked(issues, { ...written, peers: Array.isArray(peers) ? Peers.anyone : peers });
}
