/**
 * A running `satellite` connection: the listener its satellites connect to, the devices
 * they add, what each key shows and what a press does (satellite.ts says the protocol).
 */
import { type ConnectionContext, DeviceLink, every, Overruns, SparseLog, TcpListener, type TypedInstance } from '../../sdk/index.ts';
import { KeyBindings } from './bindings.ts';
import { Devices, type Satellite, send } from './devices.ts';
import { KeyLooks } from './key-looks.ts';
import { serveSatellite } from './session.ts';
import { OVERRUN_KINDS, type SatelliteOverruns, type SatelliteSettings } from './settings.ts';

const PING_EVERY_MS = 1000;
/**
 * A satellite heard from this recently is not pinged: any line proves it is there, and a
 * ping's `PONG` is the one line the hub leaves unanswered. Its acknowledgement the hub's
 * kernel delays by up to 40 ms, and a satellite that leaves Nagle's algorithm on (Companion
 * Satellite does) holds a press sent meanwhile until it comes: a take a frame or two late.
 * Companion Satellite pings every 100 ms itself, so it is never pinged.
 */
const HEARD_RECENTLY_MS = PING_EVERY_MS / 2;

/** Every setting but `keys` and `devices`: a change of one of them starts the connection again. */
const listeningOf = ({ keys: _keys, devices: _devices, peers: _peers, ...rest }: SatelliteSettings) => JSON.stringify(rest);

export class SatelliteConnection implements TypedInstance<SatelliteSettings> {
  private readonly overruns: SatelliteOverruns;
  private readonly satellites = new Set<Satellite>();
  private readonly watching: { unsubscribe(): void }[] = [];
  private readonly counts = { pressed: 0, sent: 0, silent: 0, unknown: 0 };
  private readonly looks: KeyLooks;
  private readonly devices: Devices;
  private readonly listener: TcpListener;
  private readonly link: DeviceLink;
  private readonly listening: string;
  private bindings: KeyBindings;
  /** The decks the flow expects, drawn before they connect. */
  private expected: SatelliteSettings['devices'];
  private bound: { unsubscribe(): void }[] = [];

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: SatelliteSettings,
  ) {
    const { port, bindIp, peers, keys, maxClients, maxClientsPerAddress, maxDevices, maxDevicesPerClient, maxKeys, maxLineBytes } =
      settings;
    this.overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    this.looks = new KeyLooks(context, (deviceId) => this.devices.get(deviceId), this.counts);
    this.bindings = new KeyBindings(context, keys, this.looks);
    this.expected = settings.devices;
    this.listening = listeningOf(settings);
    this.devices = new Devices(
      context,
      this.looks,
      this.overruns,
      { maxDevices, maxDevicesPerClient, maxKeys },
      (device, key, down, origin, answered) => this.bindings.press(device.deviceId, key, down, origin, answered),
    );
    const refusals = new SparseLog(context.log, context.scheduler, 'refused');
    this.listener = new TcpListener(
      {
        port,
        bindIp,
        maxClients,
        maxPerAddress: maxClientsPerAddress,
        allow: peers,
        refusedPeer: (address) => refusals.warn(`a satellite from ${address} refused: \`allow\` does not let it in`),
        // Links that added no device (that only answer pings) give their slots to new ones.
        yields: (socket) => ![...this.satellites].some((each) => each.socket === socket && each.devices.size > 0),
      },
      (socket) =>
        serveSatellite(socket, {
          context,
          satellites: this.satellites,
          devices: this.devices,
          overruns: this.overruns,
          maxLineBytes,
          counts: this.counts,
        }),
    );
    this.link = new DeviceLink(this.listener, { scheduler: context.scheduler, status: this.overruns.status, fence: context.fence });
  }

  async start(): Promise<void> {
    const { context, settings } = this;
    this.bound = this.bindings.start();
    this.looks.warm();
    await this.link.start();
    context.log.info(
      `listening for Companion Satellite on ${settings.bindIp || '*'}:${this.listener.port}; lets in ${settings.peers.describe()}`,
    );
    this.watching.push(every(context.scheduler, PING_EVERY_MS, () => this.ping()));
  }

  details(): Readonly<Record<string, unknown>> {
    return {
      port: this.listener.port,
      satellites: this.satellites.size,
      surfaces: this.surfaces(),
      devices: this.devices.all().filter((device) => device.satellite).length,
      refusedClients: this.listener.refused,
      yieldedClients: this.listener.yielded,
      refusedPeers: this.listener.refusedPeers,
      ...this.counts,
      dropped: { ...this.overruns.counts },
    };
  }

  /** New `keys` are taken in place (a key designed in the console): the decks stay connected. */
  update(next: SatelliteSettings): boolean {
    if (listeningOf(next) !== this.listening) return false;
    for (const each of this.bound) each.unsubscribe();
    for (const { device, key } of this.bindings.unboundIn(next.keys)) this.looks.unpin(device, key);
    this.expected = next.devices;
    this.bindings = new KeyBindings(this.context, next.keys, this.looks);
    this.bound = this.bindings.start();
    return true;
  }

  async stop(): Promise<void> {
    for (const each of [...this.watching.splice(0), ...this.bound.splice(0)]) each.unsubscribe();
    this.overruns.stop();
    await this.link.stop();
  }

  /** A ping to every satellite silent for a while but heard from within `timeout`; those silent longer are dropped. */
  private ping(): void {
    const now = this.context.scheduler.now();
    for (const each of this.satellites) {
      const silent = now - each.heardAt;
      if (silent > this.settings.timeout) {
        this.counts.silent++;
        each.socket.destroy();
      } else if (silent >= HEARD_RECENTLY_MS) send(each, 'PING patchbay\n');
    }
  }

  /** What the console draws: each device as a grid of its keys, and what a bound key's press writes. */
  private surfaces() {
    const { devices, bindings, looks } = this;
    return [
      ...devices.all().map((device) => ({
        device: device.deviceId,
        id: device.id,
        keys: device.keysTotal,
        perRow: device.perRow,
        bindings: bindings.presses(device),
      })),
      // Expected and not added yet: drawn by their layout, to design their keys.
      ...this.expected
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
    ];
  }
}
