/**
 * `satellite`: a server of Bitfocus Companion Satellite's protocol (R-SU2), so that the
 * Stream Decks (and other surfaces) attached to a Companion Satellite — a Raspberry Pi
 * beside the desk, pointed at the hub's address and `port` — become the hub's surfaces.
 *
 * The hub greets each satellite with `BEGIN … ApiVersion=1.7.0` (the oldest a current
 * satellite accepts: keys by index, no layout manifest), answers `ADD-DEVICE` with
 * `ADD-DEVICE OK`, reads `KEY-PRESS`, and sends `KEY-STATE` (colour, text, text colour, and
 * a bitmap drawn by the hub for devices that asked for `BITMAPS`) and `BRIGHTNESS` whenever
 * their parameters change — the changes of one turn to a key in one message. Pings are
 * answered, and sent every second; a satellite silent for `timeout` ms is dropped.
 *
 * `keys` binds a key to a parameter without rules: its colour follows `show` (`on` while
 * true, `off` otherwise), and a press toggles it, holds it true while pressed, or fires it.
 *
 * What a satellite sends is bounded (R-G4): a line past `maxLineBytes` drops the satellite;
 * devices past `maxDevices` or `maxDevicesPerClient`, keys past `maxKeys`, bitmaps larger
 * than 512 pixels and a device id another satellite has are refused with `ADD-DEVICE
 * ERROR`; satellites past `maxClients`, or `maxClientsPerAddress` from one address, are
 * closed, but past `maxClients` the longest connected link that added no device gives its
 * slot to the new one. Bitmaps are drawn off the event loop, and only as fast as each satellite reads.
 * Keys a satellite held down are let go when it goes.
 *
 * Parameters, for each device a satellite adds (its `DEVICEID`, characters an id cannot
 * hold as `_`):
 *   <device>/connected            B   read-only    true while its satellite has it
 *   <device>/brightness           I   read-write   0–100
 *   <device>/key/<n>/pressed      B   read-write   while the device is there; a write presses the key
 *                                                (the console's press: the desk's path, answered with its refusal)
 *   <device>/key/<n>/color        S   read-write   #rrggbb
 *   <device>/key/<n>/text         S   read-write
 *   <device>/key/<n>/text-color   S   read-write   #rrggbb
 */
import { defineConnectionType, droppedMetric, openListenerWarnings } from '../../sdk/index.ts';
import { SatelliteConnection } from './satellite-connection.ts';
import { parseSatelliteSettings, satelliteSettings } from './settings.ts';

export const satelliteType = defineConnectionType({
  type: 'satellite',
  summary: 'Stream Decks and other surfaces through Bitfocus Companion Satellite: keys with colour and text, presses as parameters.',
  settings: satelliteSettings,
  parse: parseSatelliteSettings,
  warn: (settings) => openListenerWarnings(settings, 'press the keys, writing to their targets'),
  discovers: () => ({ parameters: true }),
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  // A key's press is a writer of its target as a rule is (R-RS4).
  writes: ({ keys }) =>
    keys.flatMap((binding, index) =>
      binding.press === 'none' || binding.press === 'fire'
        ? []
        : [{ address: binding.target || binding.show, path: ['keys', index, binding.target ? 'target' : 'show'] }],
    ),
  metrics: [
    {
      name: 'patchbay_satellite_devices',
      help: 'Devices a satellite connection has from its satellites now.',
      kind: 'gauge',
      samples: (details) => [{ value: Number(details['devices'] ?? 0) }],
    },
    {
      name: 'patchbay_satellite_messages_total',
      help: 'What a satellite connection received and sent: key presses and releases, key states sent, satellites dropped for silence, messages not understood.',
      kind: 'counter',
      labelNames: ['kind'],
      samples: (details) =>
        (['pressed', 'sent', 'silent', 'unknown'] as const).map((kind) => ({ labels: { kind }, value: Number(details[kind] ?? 0) })),
    },
    droppedMetric('patchbay_satellite_dropped_total', 'What a satellite connection refused or dropped past its bounds, by kind (R-G4).'),
  ],
  create: (context, settings) => new SatelliteConnection(context, settings),
});
