/**
 * The settings of the `osc` connection (R-Q1): their schema, and what they are once parsed.
 */
import { Type } from '@sinclair/typebox';
import {
  type Access,
  allowSetting,
  type Checked,
  checked,
  DEFAULT_MAX_PARAMETERS,
  type Issue,
  type Parsed,
  Peers,
  withDefault,
  checkParameterId,
  type ValueType,
  AddressPatterns,
  hostnamesSetting,
  originsSetting,
  listenAddressSetting,
  portSetting,
  valueTypeSetting,
} from '../../sdk/index.ts';
import type { OscQuerySettings } from './oscquery.ts';
import { oscAddressProblem } from './packets.ts';

/** One OSC address as a parameter of the connection. */
export interface OscAddress {
  readonly id: string;
  readonly address: string;
  readonly type: ValueType;
  readonly access: Access;
}

export const oscSettings = Type.Object({
  transport: withDefault(
    Type.Union([Type.Literal('udp'), Type.Literal('tcp')], {
      description: 'udp: datagrams received on `port` and sent to `host`:`sendPort`. tcp: a link to `host`:`port`, packets SLIP-framed.',
    }),
    'udp',
  ),
  port: portSetting(
    'udp: the port the hub receives on and sends from (0: any free one). tcp: the port of the device the hub connects to.',
    { anyFree: true },
  ),
  bindIp: listenAddressSetting('udp: the address to receive on; "" for every IPv4 interface.'),
  allow: allowSetting,
  host: withDefault(
    Type.String({
      description:
        'Where writes go. udp: "" sends each write to the address the latest message came from. tcp: the device to connect to (required).',
    }),
    '',
  ),
  sendPort: withDefault(
    portSetting('udp: the port writes go to; 0 sends each to the port the latest message came from (needs a port when `host` is set).', {
      anyFree: true,
    }),
    0,
  ),
  addresses: withDefault(
    Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The parameter id: <this connection>/<id>.' }),
          address: Type.String({ description: 'The OSC address, such as /ch/01/mix/fader: exact, without pattern characters.' }),
          type: valueTypeSetting("The parameter's type: it types the argument of a write (s, T/F, i, f, none for T)."),
          access: withDefault(
            Type.Union([Type.Literal('read-only'), Type.Literal('read-write'), Type.Literal('write-only')], {
              description: 'read-only: set by incoming messages only; write-only: writes are sent, incoming messages ignored.',
            }),
            'read-write',
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'OSC addresses as parameters: an incoming message sets one from its first argument; a write sends one.' },
    ),
    [],
  ),
  learn: withDefault(
    Type.Boolean({
      description:
        'Makes a read-write parameter <address without its leading slash> for each new incoming address, typed by its first argument.',
    }),
    false,
  ),
  maxParameters: withDefault(
    Type.Integer({
      minimum: 1,
      description: 'Parameters made at most, listed ones included; past it, new addresses are dropped and counted.',
    }),
    DEFAULT_MAX_PARAMETERS,
  ),
  maxPacketBytes: withDefault(
    Type.Integer({
      minimum: 64,
      maximum: 1_048_576,
      description: 'The largest packet (datagram or SLIP frame) taken; larger ones are dropped and counted.',
    }),
    16_384,
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 1, description: 'Milliseconds a write may wait for the socket to take it before it is refused (504).' }),
    2000,
  ),
  oscQuery: Type.Optional(
    Type.Object(
      {
        port: portSetting('The TCP port of the OSCQuery server (HTTP and WebSocket); 0 picks a free one, which is logged.', {
          anyFree: true,
        }),
        bindIp: listenAddressSetting('The address it listens on; "" for every interface.', '127.0.0.1'),
        expose: Type.Array(Type.String(), {
          minItems: 1,
          description:
            "Address patterns (studio/#, +/onair) of the hub's parameters the namespace shows: any connection's, as a scoped token reads them.",
        }),
        write: withDefault(
          Type.Array(Type.String(), {
            description: 'Address patterns of exposed parameters an OSC message (or an OSCQuery client) may write; none by default.',
          }),
          [],
        ),
        origins: withDefault(
          originsSetting(
            'Origins (scheme://host[:port]) of web pages that may open the WebSocket and read the namespace; none by default: native tools send no Origin and are not affected.',
          ),
          [],
        ),
        hostnames: withDefault(
          hostnamesSetting(
            "Host names (without port) tools use for this hub, besides IP addresses, localhost and the machine's own names; requests to any other name are refused (DNS rebinding).",
          ),
          [],
        ),
      },
      {
        additionalProperties: false,
        description:
          "Serve the hub's parameters as an OSCQuery namespace (R-DS2): TouchDesigner, Chataigne, MadMapper and the like find their types, values and access there, LISTEN to changes, and write by OSC to the connection's port.",
      },
    ),
  ),
});

export type OscSettings = Omit<Parsed<typeof oscSettings>, 'addresses' | 'oscQuery'> & {
  /** udp: the peers whose packets are taken. */
  readonly peers: Peers;
  readonly addresses: readonly OscAddress[];
  readonly oscQuery: OscQuerySettings | undefined;
};

/** Checks what the schema cannot: ids, OSC addresses, each listed once, and where writes go. */
export function parseOscSettings(settings: Parsed<typeof oscSettings>): Checked<OscSettings> {
  const issues: Issue[] = [];
  const ids = new Set<string>();
  const addresses = new Set<string>();
  settings.addresses.forEach(({ id, address }, index) => {
    const idChecked = checkParameterId(id);
    if (!idChecked.ok) issues.push({ path: ['addresses', index, 'id'], message: idChecked.error.message });
    else if (ids.has(id)) issues.push({ path: ['addresses', index, 'id'], message: `"${id}" is listed twice` });
    ids.add(id);
    const problem = oscAddressProblem(address);
    if (problem) issues.push({ path: ['addresses', index, 'address'], message: problem });
    else if (addresses.has(address)) issues.push({ path: ['addresses', index, 'address'], message: `"${address}" is listed twice` });
    addresses.add(address);
  });
  if (settings.transport === 'tcp' && settings.host === '')
    issues.push({ path: ['host'], message: 'expected the device to connect to: tcp connects to `host`:`port`' });
  if (settings.transport === 'udp' && settings.host !== '' && settings.sendPort === 0)
    issues.push({ path: ['sendPort'], message: `expected the port of ${settings.host} that writes go to` });
  const patterns = (list: readonly string[], key: 'expose' | 'write') => {
    const compiled = AddressPatterns.compile(list);
    if (!compiled.ok) issues.push({ path: ['oscQuery', key], message: compiled.error.message });
    return compiled.ok ? compiled.value : undefined;
  };
  const asked = settings.oscQuery;
  const [expose, write] = asked ? [patterns(asked.expose, 'expose'), patterns(asked.write, 'write')] : [];
  const oscQuery =
    asked && expose && write
      ? {
          port: asked.port,
          bindIp: asked.bindIp,
          expose,
          write,
          origins: asked.origins,
          hostnames: asked.hostnames,
          written: { expose: asked.expose, write: asked.write },
        }
      : undefined;
  const peers = Peers.compile(settings.allow);
  if (Array.isArray(peers)) issues.push(...peers);
  return checked(issues, { ...settings, oscQuery, peers: Array.isArray(peers) ? Peers.anyone : peers });
}
