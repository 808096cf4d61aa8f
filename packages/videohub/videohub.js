// @ts-check
/**
 * `videohub`: a Blackmagic Videohub router over its Ethernet protocol (TCP 9990, text
 * blocks, `protocol.js`). Routes, labels and locks of any size up to 288×288, read from the
 * router's state on every connect and kept current by what it sends; writes are answered
 * when the router acknowledges them. Built on `patchbay-hub/connection` alone.
 *
 * Parameters (ports numbered from 0, as the protocol numbers them; listed under `parameters`
 * below and in the README): for each output, monitoring output (`monitor/<n>`) and serial
 * port (`serial/<n>`) its route, label and lock, for each input its label; the device; and
 * routing as a panel does it (`route`, the selection and the take).
 */
import {
  checked,
  connectTimeoutSetting,
  defineConnectionType,
  DeviceLink,
  every,
  hostSetting,
  portSetting,
  Type,
  withDefault,
} from 'patchbay-hub/connection';
import { RouterLink } from './link.js';
import { BLOCKS, KINDS } from './kinds.js';
import { RouterPorts } from './ports.js';
import { count, fields, indexed, MAX_PORTS } from './protocol.js';
import { Routing } from './routing.js';
import { Writes } from './writes.js';

/** @param {string} what */
const ports = (what) =>
  withDefault(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PORTS,
      description: `How many ${what} the router has: their parameters exist from the start, for rules to name. 0: as many as the router says when it connects.`,
    }),
    0,
  );

const settings = Type.Object({
  host: hostSetting('The router: a host name or an IP address.'),
  port: withDefault(portSetting("The router's port."), 9990),
  inputs: ports('inputs'),
  outputs: ports('outputs'),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'Milliseconds a write waits for the router to acknowledge it.' }),
    2000,
  ),
  ping: withDefault(
    Type.Integer({
      minimum: 0,
      maximum: 3_600_000,
      description: 'Milliseconds between pings of a quiet link; a ping the router does not answer within `timeout` closes it. 0: no pings.',
    }),
    10_000,
  ),
  connectTimeout: connectTimeoutSetting,
  take: withDefault(
    Type.Boolean({
      description:
        'Whether a source routed to the selected destination (`selected/input`) waits for `take`, as on a panel with a take key.',
    }),
    false,
  ),
});

/** @typedef {import('patchbay-hub/connection').Parsed<typeof settings>} Settings */
/** @typedef {import('./protocol.js').Block} Block */

/** A router: its link, its ports as parameters, what it says read onto them, its writes. */
class VideohubConnection {
  #settings;
  #scheduler;
  #link;
  #router;
  #writes;
  #ports;
  #routing;
  #device;
  #counts = { blocks: 0, skipped: 0 };
  /** @type {{ unsubscribe(): void } | undefined} */
  #pinging;

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext} context
   * @param {Settings} settings
   */
  constructor(context, settings) {
    this.#settings = settings;
    this.#scheduler = context.scheduler;
    this.#device = {
      model: context.define('device/model', { type: 'S', access: 'read-only', initial: '', meta: { label: 'Model' } }),
      name: context.define('device/name', { type: 'S', access: 'read-only', initial: '', meta: { label: 'Name' } }),
      present: context.define('device/present', { type: 'B', access: 'read-only', initial: false, meta: { label: 'Device present' } }),
    };
    this.#router = new RouterLink(context.scheduler, settings, (received) => this.#take(received));
    this.#link = new DeviceLink(this.#router, {
      scheduler: context.scheduler,
      status: context.setStatus,
      timeoutMs: settings.timeout,
      fence: context.fence,
    });
    this.#writes = new Writes(this.#link, this.#router);
    this.#ports = new RouterPorts(
      context,
      settings,
      (title, line, report, answered) => this.#writes.command(title, line, report, answered),
      () => this.#router.preluded,
      (id, source) => this.#routing.heard(id, source),
    );
    this.#routing = new Routing(context, this.#ports, settings.take);
  }

  start() {
    this.#ports.configure();
    if (this.#settings.ping > 0) this.#pinging = this.#pings(this.#settings.ping);
    return this.#link.start();
  }

  stop() {
    this.#pinging?.unsubscribe();
    this.#router.stopWaiting();
    this.#ports.stop();
    return this.#link.stop();
  }

  details() {
    const { host, port } = this.#settings;
    const { inputs, outputs, monitors, serials } = this.#ports.size;
    const { blocks, skipped } = this.#counts;
    return { host, port, inputs, outputs, monitors, serials, blocks, ...this.#writes.counts, skipped: skipped + this.#router.longLines };
  }

  /**
   * Pings a link that was quiet for `interval`; one unanswered within `timeout` closes it.
   * Looked at four times an interval, so that a ping goes `interval` ms after the router was
   * last heard, not up to twice that.
   * @param {number} interval
   */
  #pings(interval) {
    return every(this.#scheduler, Math.max(250, interval / 4), () => this.#router.pingIfQuiet(interval));
  }

  /** @param {Block} received */
  #take(received) {
    this.#read(received);
    this.#ports.describeRoutes(() => this.#routing.describe());
  }

  /** @param {Block} received */
  #read({ title, lines }) {
    this.#counts.blocks++;
    switch (title) {
      case 'ACK':
      case 'NAK':
        return this.#writes.settle(this.#router.answered(), title === 'ACK');
      case 'VIDEOHUB DEVICE':
        return this.#readDevice(lines);
      case 'END PRELUDE':
        return this.#router.ready(() => this.#ports.describeRoutes(() => this.#routing.describe()));
    }
    const block = BLOCKS.get(title);
    if (!block) {
      // Processing units, serial port directions, configuration: not shown.
      this.#counts.skipped++;
      return;
    }
    const { kind, holds } = block;
    if (holds === 'label') {
      this.#ports.renamed();
      return this.#readLabels(kind, lines);
    }
    return holds === 'input' ? this.#readRoutes(kind, lines) : this.#readLocks(kind, lines);
  }

  /** @param {string[]} lines */
  #readDevice(lines) {
    const device = fields(lines);
    const presence = device.get('Device present');
    if (presence !== undefined) this.#device.present.report(presence === 'true');
    if (device.has('Model name')) this.#device.model.report(device.get('Model name') ?? '');
    if (device.has('Friendly name')) this.#device.name.report(device.get('Friendly name') ?? '');
    for (const [field, kind] of /** @type {const} */ ([
      ['Video inputs', 'inputs'],
      ['Video outputs', 'outputs'],
      ['Video monitoring outputs', 'monitors'],
      ['Serial ports', 'serials'],
    ])) {
      const told = count(device.get(field));
      if (told !== undefined) this.#ports.grow(kind, told);
    }
  }

  /** @param {import('./kinds.js').Kind} kind @param {string[]} lines */
  #readLabels(kind, lines) {
    this.#each(lines, (n, text) => {
      this.#ports.grow(kind, n + 1);
      this.#heard(`${KINDS[kind].prefix}/${n}/label`, text);
    });
  }

  /** @param {import('./kinds.js').Kind} kind @param {string[]} lines */
  #readRoutes(kind, lines) {
    this.#each(lines, (n, rest) => {
      const input = count(rest);
      const id = `${KINDS[kind].prefix}/${n}/input`;
      if (input === undefined || String(input) !== rest.trim()) this.#counts.skipped++;
      else this.#heard(id, input);
    });
  }

  /** @param {import('./kinds.js').Kind} kind @param {string[]} lines */
  #readLocks(kind, lines) {
    this.#each(lines, (n, rest) => {
      const lock = rest.trim();
      if (lock === 'U' || lock === 'O' || lock === 'L') this.#heard(`${KINDS[kind].prefix}/${n}/lock`, lock);
      else this.#counts.skipped++;
    });
  }

  /**
   * `<index> <rest>` lines of a block, each to `work`; a line that is not one is skipped.
   * @param {string[]} lines @param {(n: number, rest: string) => void} work
   */
  #each(lines, work) {
    for (const line of lines) {
      const read = indexed(line);
      if (read) work(...read);
      else this.#counts.skipped++;
    }
  }

  /**
   * Reports `value` on a port's parameter; counted as skipped when the port is not one of the router's.
   * @param {string} id @param {import('patchbay-hub/connection').Value} value
   */
  #heard(id, value) {
    const known = this.#ports.heard(id, value);
    if (!known) this.#counts.skipped++;
    return known;
  }
}

export default defineConnectionType({
  type: 'videohub',
  summary: 'A Blackmagic Videohub router (TCP 9990): routes, labels and locks, up to 288×288.',
  errors: {
    VIDEOHUB_NAK: {
      status: 502,
      text: 'The router answered NAK: it did not take the command (a port it does not have, or a command it does not know). Nothing changed on the router.',
    },
    VIDEOHUB_LOCKED: {
      status: 409,
      text: 'The destination is locked (here or by another) and the route did not say to ignore its lock: nothing was sent. Unlock it, or route with the lock ignored.',
    },
  },
  parameters: [
    {
      id: 'output/<n>/input',
      type: 'I',
      access: 'read-write',
      description: 'the input routed to output n, from 0 (choices: the inputs by name)',
    },
    { id: 'output/<n>/label', type: 'S', access: 'read-write', description: "output n's label" },
    {
      id: 'output/<n>/lock',
      type: 'S',
      access: 'read-write',
      description:
        'U unlocked, O locked by this hub, L locked by another; write O to lock, U to unlock, F to force an unlock, T to toggle, FO to force and lock, FT to force and toggle',
    },
    { id: 'monitor/<n>/input', type: 'I', access: 'read-write', description: 'the input routed to monitoring output n' },
    { id: 'monitor/<n>/label', type: 'S', access: 'read-write', description: "monitoring output n's label" },
    { id: 'monitor/<n>/lock', type: 'S', access: 'read-write', description: "monitoring output n's lock, as an output's" },
    { id: 'serial/<n>/input', type: 'I', access: 'read-write', description: 'the serial port routed to serial port n' },
    { id: 'serial/<n>/label', type: 'S', access: 'read-write', description: "serial port n's label" },
    { id: 'serial/<n>/lock', type: 'S', access: 'read-write', description: "serial port n's lock, as an output's" },
    { id: 'input/<n>/label', type: 'S', access: 'read-write', description: "input n's label" },
    {
      id: 'route',
      type: 'S',
      access: 'write-only',
      description:
        'routes a destination (outputs from 0, then monitoring outputs): a JSON object of destination and one of input, from (the source of another destination) or previous, and ignoreLock',
    },
    {
      id: 'serial/route',
      type: 'S',
      access: 'write-only',
      description: 'routes a serial port: a JSON object of port, input and ignoreLock',
    },
    { id: 'selected/output', type: 'I', access: 'read-write', description: 'the selected destination, numbered as in route' },
    {
      id: 'selected/input',
      type: 'I',
      access: 'read-write',
      description: "the selected destination's source; a write routes it (minding its lock), or queues it when take is on",
    },
    { id: 'selected/forceInput', type: 'I', access: 'write-only', description: 'as selected/input, its lock ignored' },
    { id: 'take', type: 'T', access: 'write-only', description: 'routes the queued route (minding its lock)' },
    { id: 'take/force', type: 'T', access: 'write-only', description: 'routes the queued route, its lock ignored' },
    { id: 'take/clear', type: 'T', access: 'write-only', description: 'forgets the queued route' },
    { id: 'take/queued', type: 'B', access: 'read-only', description: 'a route waits for a take' },
    { id: 'take/input', type: 'I', access: 'read-only', description: 'the source waiting for a take; -1: none' },
    { id: 'take/output', type: 'I', access: 'read-only', description: 'the destination waiting for a take; -1: none' },
    { id: 'device/model', type: 'S', access: 'read-only', description: 'as the router names itself' },
    { id: 'device/name', type: 'S', access: 'read-only', description: 'its friendly name, when it gives one' },
    { id: 'device/present', type: 'B', access: 'read-only', description: 'false when the router says no device is present' },
  ],
  settings,
  parse(written) {
    /** @type {import('patchbay-hub/connection').Issue[]} */
    const issues = [];
    if (written.ping > 0 && written.ping < 1000) issues.push({ path: ['ping'], message: 'at least 1000 ms, or 0 for no pings' });
    return checked(issues, written);
  },
  discovers: ({ inputs, outputs }) => ({ parameters: inputs === 0 || outputs === 0 }),
  create: (context, parsed) => new VideohubConnection(context, parsed),
});
