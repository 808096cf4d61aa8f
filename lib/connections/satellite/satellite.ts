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
import {
  defineConnectionType,
  DeviceLink,
  droppedMetric,
  every,
  openListenerWarnings,
  Overruns,
  TcpListener,
  SparseLog,
} from '../../sdk/index.ts';
import { KeyBindings } from './bindings.ts';
import { Devices, type Satellite, send } from './devices.ts';
import { KeyLooks } from './key-looks.ts';
import { serveSatellite } from './session.ts';
import { OVERRUN_KINDS, parseSatelliteSettings, satelliteSettings } from './settings.ts';

const PING_EVERY_MS = 1000;

/** Every setting but `keys` and `devices`: a change of one of them starts the connection again. */
const listeningOf = ({
  keys: _keys,
  devices: _devices,
  peers: _peers,
  ...rest
}: Extract<ReturnType<typeof parseSatelliteSettings>, { ok: true }>['value']) => rest;

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
  create(context, settings) {
    const { port, bindIp, peers, keys, timeout, maxClients, maxClientsPerAddress, maxDevices, maxDevicesPerClient, maxKeys, maxLineBytes } =
      settings;
    const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    const satellites = new Set<Satellite>();
    const watching: { unsubscribe(): void }[] = [];
    const counts = { pressed: 0, sent: 0, silent: 0, unknown: 0 };
    const looks = new KeyLooks(context, (deviceId) => devices.get(deviceId), counts);
    let bindings = new KeyBindings(context, keys, looks);
    let expected = settings.devices;
    let bound: { unsubscribe(): void }[] = [];
    const listening = JSON.stringify(listeningOf(settings));
    const devices: Devices = new Devices(
      context,
      looks,
      overruns,
      { maxDevices, maxDevicesPerClient, maxKeys },
      (device, key, down, origin, answered) => bindings.press(device.deviceId, key, down, origin, answered),
    );

    const refusals = new SparseLog(context.log, context.scheduler, 'refused');
    const listener = new TcpListener(
      {
        port,
        bindIp,
        maxClients,
        maxPerAddress: maxClientsPerAddress,
        allow: peers,
        refusedPeer: (address) => refusals.warn(`a satellite from ${address} refused: \`allow\` does not let it in`),
        // Links that added no device (that only answer pings) give their slots to new ones.
        yields: (socket) => ![...satellites].some((each) => each.socket === socket && each.devices.size > 0),
      },
      (socket) =>
        serveSatellite(socket, {
          context,
          satellites,
          devices,
          overruns,
          maxLineBytes,
          counts,
        }),
    );

    const link = new DeviceLink(listener, { scheduler: context.scheduler, status: overruns.status, fence: context.fence });

    return {
      async start() {
        bound = bindings.start();
        looks.warm();
        await link.start();
        context.log.info(`listening for Companion Satellite on ${bindIp || '*'}:${listener.port}; lets in ${peers.describe()}`);
        watching.push(
          every(context.scheduler, PING_EVERY_MS, () => {
            const now = context.scheduler.now();
            for (const each of satellites) {
              if (now - each.heardAt > timeout) {
                counts.silent++;
                each.socket.destroy();
              } else send(each, 'PING patchbay\n');
            }
          }),
        );
      },
      details: () => ({
        port: listener.port,
        satellites: satellites.size,
        // What the console draws: each device as a grid of its keys, and what a bound key's press writes.
        surfaces: [
          ...devices.all().map((device) => ({
            device: device.deviceId,
            id: device.id,
            keys: device.keysTotal,
            perRow: device.perRow,
            bindings: bindings.presses(device),
          })),
          // Expected and not added yet: drawn by their layout, to design their keys.
          ...expected
            .filter(({ device }) => !devices.get(device))
            .map(({ device, keys: keysTotal, perRow }) => ({
              device,
              keys: keysTotal,
              perRow,
              expected: true,
              bindings: bindings.presses({ deviceId: device, keysTotal }),
              // Its keys have no parameters before it connects: their looks come with it.
              looks: looks.pinnedOf(device, keysTotal),
            })),
        ],
        devices: devices.all().filter((device) => device.satellite).length,
        refusedClients: listener.refused,
        yieldedClients: listener.yielded,
        refusedPeers: listener.refusedPeers,
        ...counts,
        dropped: { ...overruns.counts },
      }),
      // New `keys` are taken in place (a key designed in the console): the decks stay connected.
      update(next) {
        if (JSON.stringify(listeningOf(next)) !== listening) return false;
        for (const each of bound) each.unsubscribe();
        for (const { device, key } of bindings.unboundIn(next.keys)) looks.unpin(device, key);
        expected = next.devices;
        bindings = new KeyBindings(context, next.keys, looks);
        bound = bindings.start();
        return true;
      },
      async stop() {
        for (const each of [...watching.splice(0), ...bound.splice(0)]) each.unsubscribe();
        overruns.stop();
        await link.stop();
      },
    };
  },
});
