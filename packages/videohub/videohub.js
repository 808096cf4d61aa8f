// @ts-check
/**
 * `videohub`: a Blackmagic Videohub router over its Ethernet protocol (TCP 9990, text
 * blocks, `protocol.js`). Routes, labels and locks of any size up to 288×288, read from the
 * router's state on every connect and kept current by what it sends; writes are answered
 * when the router acknowledges them. Built on `patchbay-hub/connection` alone.
 *
 * Parameters (inputs and outputs numbered from 0, as the protocol numbers them):
 *   output/<n>/input   I   read-write   the input routed to output n
 *   output/<n>/label   S   read-write
 *   output/<n>/lock    S   read-write   U unlocked, O locked by this hub, L locked by another;
 *                                       write O to lock, U to unlock, F to force an unlock
 *   input/<n>/label    S   read-write
 *   device/model       S   read-only    as the router names itself
 *   device/name        S   read-only    its friendly name, when it gives one
 *   device/present     B   read-only    false when the router says no device is present
 */
import { checked, connectTimeoutSetting, DeviceLink, defineConnectionType, every, Type, withDefault } from 'patchbay-hub/connection';
import { RouterLink } from './link.js';
import { RouterPorts } from './ports.js';
import { count, fields, indexed, MAX_PORTS } from './protocol.js';
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
  host: Type.String({ minLength: 1, description: 'The router: a host name or an IP address.' }),
  port: withDefault(Type.Integer({ minimum: 1, maximum: 65_535, description: "The router's port." }), 9990),
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
      model: context.define('device/model', { type: 'S', access: 'read-only', initial: '' }),
      name: context.define('device/name', { type: 'S', access: 'read-only', initial: '' }),
      present: context.define('device/present', { type: 'B', access: 'read-only', initial: false }),
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
    );
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
    const { inputs, outputs } = this.#ports.size;
    const { blocks, skipped } = this.#counts;
    return { host, port, inputs, outputs, blocks, ...this.#writes.counts, skipped: skipped + this.#router.longLines };
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
    this.#ports.describeRoutes();
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
      case 'INPUT LABELS':
        this.#ports.renamed();
        return this.#readLabels('inputs', lines);
      case 'OUTPUT LABELS':
        this.#ports.renamed();
        return this.#readLabels('outputs', lines);
      case 'VIDEO OUTPUT ROUTING':
        return this.#readRoutes(lines);
      case 'VIDEO OUTPUT LOCKS':
        return this.#readLocks(lines);
      case 'END PRELUDE':
        return this.#router.ready(() => this.#ports.describeRoutes());
      default:
        // Monitoring outputs, serial ports, processing units, configuration: not shown.
        this.#counts.skipped++;
    }
  }

  /** @param {string[]} lines */
  #readDevice(lines) {
    const device = fields(lines);
    const presence = device.get('Device present');
    if (presence !== undefined) this.#device.present.report(presence === 'true');
    if (device.has('Model name')) this.#device.model.report(device.get('Model name') ?? '');
    if (device.has('Friendly name')) this.#device.name.report(device.get('Friendly name') ?? '');
    const ins = count(device.get('Video inputs'));
    const outs = count(device.get('Video outputs'));
    if (ins !== undefined) this.#ports.grow('inputs', ins);
    if (outs !== undefined) this.#ports.grow('outputs', outs);
  }

  /** @param {'inputs' | 'outputs'} which @param {string[]} lines */
  #readLabels(which, lines) {
    const port = which === 'inputs' ? 'input' : 'output';
    this.#each(lines, (n, text) => {
      this.#ports.grow(which, n + 1);
      this.#heard(`${port}/${n}/label`, text);
    });
  }

  /** @param {string[]} lines */
  #readRoutes(lines) {
    this.#each(lines, (n, rest) => {
      const input = count(rest);
      if (input === undefined || String(input) !== rest.trim()) this.#counts.skipped++;
      else this.#heard(`output/${n}/input`, input);
    });
  }

  /** @param {string[]} lines */
  #readLocks(lines) {
    this.#each(lines, (n, rest) => {
      const lock = rest.trim();
      if (lock === 'U' || lock === 'O' || lock === 'L') this.#heard(`output/${n}/lock`, lock);
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
    if (!this.#ports.heard(id, value)) this.#counts.skipped++;
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
      description: 'U unlocked, O locked by this hub, L locked by another; write O to lock, U to unlock, F to force an unlock',
    },
    { id: 'input/<n>/label', type: 'S', access: 'read-write', description: "input n's label" },
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
