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
import {
  after,
  afterTurn,
  checked,
  connectTimeoutSetting,
  DeviceLink,
  defineConnectionType,
  every,
  HubError,
  TcpConnection,
  Type,
  withDefault,
} from 'patchbay-hub/connection';
import { BlockReader, block, count, fields, indexed, MAX_PORTS } from './protocol.js';

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

/** The lock a write asks for, by the letter written. */
const LOCK_WRITES = new Set(['O', 'U', 'F']);
/** A lock's letters for a person: what may be written, and L, which the router reports. */
const LOCKS = [
  { value: 'U', label: 'Unlocked' },
  { value: 'O', label: 'Locked here' },
  { value: 'F', label: 'Force an unlock' },
  { value: 'L', label: 'Locked by another' },
];

/**
 * @typedef {{ kind: 'command', confirms: ((error?: unknown) => void)[], values: (() => void)[] } | { kind: 'ping' }} Awaited
 * What an ACK or NAK settles, oldest first: a block of commands (with what to report once
 * the router took it), or a ping.
 */

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
  create(context, { host, port, inputs, outputs, timeout, ping, connectTimeout }) {
    /** @type {TcpConnection | undefined} */
    let connection;
    let reader = new BlockReader();
    /** @type {Awaited[]} */
    let awaiting = [];
    /** Commands of this turn, by block title: sent as one block when the turn ends. */
    /** @type {Map<string, { lines: string[], confirms: ((error?: unknown) => void)[], values: (() => void)[] }>} */
    const due = new Map();
    const counts = { blocks: 0, acknowledged: 0, refused: 0, skipped: 0 };
    /** The ports known: as configured, or as many as the router said. */
    const size = { inputs: 0, outputs: 0 };
    /** @type {{ up(): void, down(reason: string): void } | undefined} */
    let attempt;
    let preluded = false;
    /** @type {{ unsubscribe(): void } | undefined} */
    let preludeWait;
    let lastHeard = 0;

    /** @type {Map<string, import('patchbay-hub/connection').OwnedParameter>} */
    const parameters = new Map();
    const model = context.define('device/model', { type: 'S', access: 'read-only', initial: '' });
    const name = context.define('device/name', { type: 'S', access: 'read-only', initial: '' });
    const present = context.define('device/present', { type: 'B', access: 'read-only', initial: false });

    /**
     * Queues a line of a command block for the end of the turn; `report` runs once the router took it.
     * @param {string} title
     * @param {string} line
     * @param {() => void} report
     * @param {import('patchbay-hub/connection').Answered | undefined} answered
     */
    const command = (title, line, report, answered) =>
      link.write((confirm) => {
        let entry = due.get(title);
        if (!entry) {
          if (due.size === 0) afterTurn(sendDue);
          due.set(title, (entry = { lines: [], confirms: [], values: [] }));
        }
        entry.lines.push(line);
        entry.confirms.push(confirm);
        entry.values.push(report);
      }, answered);

    /**
     * Waits for the answer to what is about to be sent. Answers come in the order of what
     * they answer: one that does not come within `timeout` leaves every later one unmatched,
     * so the link closes, and its next connect reads the router's state afresh.
     * @param {Awaited} entry
     * @param {string} reason
     */
    const expectAnswer = (entry, reason) => {
      awaiting.push(entry);
      const sentOn = connection;
      after(context.scheduler, timeout, () => {
        if (sentOn && connection === sentOn && awaiting.includes(entry)) sentOn.close(reason);
      });
    };

    const sendDue = () => {
      for (const [title, { lines, confirms, values }] of due) {
        if (!connection) {
          for (const confirm of confirms) confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the link closed'));
          continue;
        }
        expectAnswer({ kind: 'command', confirms, values }, `no answer to a command within ${timeout} ms`);
        connection.send(block(title, lines), (error) => {
          if (error) for (const confirm of confirms) confirm(error);
        });
      }
      due.clear();
    };

    /**
     * Defines a read-write parameter whose writes are commands to the router.
     * @param {string} id
     * @param {'I' | 'S'} type
     * @param {(value: import('patchbay-hub/connection').Value) => string | undefined} problem why a value is refused, if it is
     * @param {string} title
     * @param {(value: import('patchbay-hub/connection').Value) => string} line
     * @param {import('patchbay-hub/connection').ParameterMeta} meta what it says of itself
     */
    const defineCommand = (id, type, problem, title, line, meta) => {
      if (parameters.has(id)) return;
      /** @type {import('patchbay-hub/connection').OwnedParameter} */
      const parameter = context.define(id, {
        type,
        access: 'read-write',
        meta,
        ownedHere: true,
        forward: (value, _origin, answered) => {
          const why = problem(value);
          if (why !== undefined) return { ok: false, error: new HubError('PB_CONVERSION', why) };
          return command(title, line(value), () => parameter.report(value), answered);
        },
      });
      parameters.set(id, parameter);
    };

    /** A port's name as its label says it, numbered from 1 as the router's own panel does. */
    const portName = (/** @type {'input' | 'output'} */ which, /** @type {number} */ n) => {
      const label = parameters.get(`${which}/${n}/label`)?.value;
      return `${which === 'input' ? 'Input' : 'Output'} ${n + 1}${label ? `: ${label}` : ''}`;
    };

    /**
     * What a route says of itself (R-PK6): its output by name, and the router's inputs by
     * name as its choices — a picker of sources, not a number typed by hand.
     * @param {number} n
     * @returns {import('patchbay-hub/connection').ParameterMeta}
     */
    const routeMeta = (n) => ({
      label: `${portName('output', n)}: source`,
      choices: Array.from({ length: size.inputs }, (_, i) => ({ value: i, label: portName('input', i) })),
    });

    /**
     * Routes say anew what they are once blocks changed the names or the number of ports: at
     * once (after the state dump of a connect), then at most once a second, and only the routes whose words changed. A router that
     * sends its labels without end (or lies) costs one pass a second, not 288 descriptions
     * of 288 choices a block, each crossing to the hub.
     */
    let renamed = false;
    /** @type {{ unsubscribe(): void } | undefined} */
    let describing;
    /** What each route said last, by output. @type {Map<number, string>} */
    const said = new Map();
    const describeRoutes = () => {
      // The state dump on connect says them once it is whole (its end, or its wait, passed).
      if (!renamed || describing || !preluded) return;
      renamed = false;
      describing = after(context.scheduler, 1000, () => {
        describing = undefined;
        describeRoutes();
      });
      for (let n = 0; n < size.outputs; n++) {
        const meta = routeMeta(n);
        const words = JSON.stringify(meta);
        if (said.get(n) === words) continue;
        said.set(n, words);
        parameters.get(`output/${n}/input`)?.describe(meta);
      }
    };

    const defineInput = (/** @type {number} */ n) =>
      defineCommand(`input/${n}/label`, 'S', oneLine, 'INPUT LABELS', (value) => `${n} ${value}`, { label: `Input ${n + 1}: name` });

    const defineOutput = (/** @type {number} */ n) => {
      defineCommand(
        `output/${n}/input`,
        'I',
        (value) =>
          Number(value) >= 0 && (size.inputs === 0 || Number(value) < size.inputs)
            ? undefined
            : `input ${value} is not one of the router's${size.inputs > 0 ? ` 0–${size.inputs - 1}` : ''}`,
        'VIDEO OUTPUT ROUTING',
        (value) => `${n} ${value}`,
        routeMeta(n),
      );
      defineCommand(`output/${n}/label`, 'S', oneLine, 'OUTPUT LABELS', (value) => `${n} ${value}`, { label: `Output ${n + 1}: name` });
      defineCommand(
        `output/${n}/lock`,
        'S',
        (value) =>
          LOCK_WRITES.has(String(value)) ? undefined : `a lock is written O (lock), U (unlock) or F (force an unlock), not "${value}"`,
        'VIDEO OUTPUT LOCKS',
        (value) => `${n} ${value}`,
        { label: `Output ${n + 1}: lock`, choices: LOCKS },
      );
    };

    /**
     * Makes the parameters of ports up to `to`: those configured at start, those the router
     * tells of when none were configured.
     * @param {'inputs' | 'outputs'} which
     * @param {number} to
     * @param {boolean} [configuring]
     */
    const grow = (which, to, configuring = false) => {
      if (!configuring && (which === 'inputs' ? inputs : outputs) > 0) return;
      const define = which === 'inputs' ? defineInput : defineOutput;
      const before = size[which];
      for (let n = size[which]; n < Math.min(to, MAX_PORTS); n++) define(n);
      size[which] = Math.max(size[which], Math.min(to, MAX_PORTS));
      if (which === 'inputs' && size.inputs !== before) renamed = true;
    };

    /**
     * Reports `value` on `output/<n>/<what>` or `input/<n>/label` when the port is one of the router's.
     * @param {string} id
     * @param {import('patchbay-hub/connection').Value} value
     */
    const heard = (id, value) => {
      const parameter = parameters.get(id);
      if (parameter) parameter.report(value);
      else counts.skipped++;
    };

    /** @param {import('./protocol.js').Block} received */
    const take = (received) => {
      read(received);
      describeRoutes();
    };

    /** @param {import('./protocol.js').Block} received */
    const read = (received) => {
      counts.blocks++;
      const { title, lines } = received;
      if (title === 'ACK' || title === 'NAK') return settle(title === 'ACK');
      const each = (/** @type {(n: number, rest: string) => void} */ work) => {
        for (const line of lines) {
          const read = indexed(line);
          if (read) work(...read);
          else counts.skipped++;
        }
      };
      switch (title) {
        case 'VIDEOHUB DEVICE': {
          const device = fields(lines);
          const presence = device.get('Device present');
          if (presence !== undefined) present.report(presence === 'true');
          if (device.has('Model name')) model.report(device.get('Model name') ?? '');
          if (device.has('Friendly name')) name.report(device.get('Friendly name') ?? '');
          const ins = count(device.get('Video inputs'));
          const outs = count(device.get('Video outputs'));
          if (ins !== undefined) grow('inputs', ins);
          if (outs !== undefined) grow('outputs', outs);
          return;
        }
        case 'INPUT LABELS':
          renamed = true;
          return each((n, text) => {
            grow('inputs', n + 1);
            heard(`input/${n}/label`, text);
          });
        case 'OUTPUT LABELS':
          renamed = true;
          return each((n, text) => {
            grow('outputs', n + 1);
            heard(`output/${n}/label`, text);
          });
        case 'VIDEO OUTPUT ROUTING':
          return each((n, rest) => {
            const input = count(rest);
            if (input === undefined || String(input) !== rest.trim()) counts.skipped++;
            else heard(`output/${n}/input`, input);
          });
        case 'VIDEO OUTPUT LOCKS':
          return each((n, rest) => {
            const lock = rest.trim();
            if (lock === 'U' || lock === 'O' || lock === 'L') heard(`output/${n}/lock`, lock);
            else counts.skipped++;
          });
        case 'END PRELUDE':
          return ready();
        default:
          // Monitoring outputs, serial ports, processing units, configuration: not shown.
          counts.skipped++;
      }
    };

    /** The prelude is read: the router's state is known, and the link is up. */
    const ready = () => {
      if (preluded) return;
      preluded = true;
      preludeWait?.unsubscribe();
      describeRoutes();
      attempt?.up();
    };

    /** An ACK or NAK: settles the oldest command block (or ping). */
    const settle = (/** @type {boolean} */ acknowledged) => {
      const oldest = awaiting.shift();
      if (!oldest || oldest.kind === 'ping') return;
      if (acknowledged) counts.acknowledged++;
      else counts.refused++;
      if (acknowledged) for (const report of oldest.values) report();
      for (const confirm of oldest.confirms)
        confirm(
          acknowledged
            ? undefined
            : new HubError('PB_BAD_ANSWER', 'the router answered NAK: it did not take the command', { declared: 'VIDEOHUB_NAK' }),
        );
    };

    const link = new DeviceLink(
      {
        open(linkAttempt) {
          attempt = linkAttempt;
          counts.skipped += reader.longLines;
          reader = new BlockReader();
          awaiting = [];
          preluded = false;
          const opened = TcpConnection.open(
            // Up once the router has told its state (END PRELUDE), not at the TCP connect.
            { up: () => {}, down: (reason) => linkAttempt.down(reason) },
            { host, port, connectTimeout },
            {
              connected() {
                preludeWait = after(context.scheduler, connectTimeout, () =>
                  opened.close(`${host}:${port} sent no state (END PRELUDE) within ${connectTimeout} ms: is it a Videohub?`),
                );
              },
              data(chunk) {
                lastHeard = context.scheduler.now();
                let blocks;
                try {
                  blocks = reader.read(chunk);
                } catch (error) {
                  return opened.close(/** @type {Error} */ (error).message);
                }
                for (const received of blocks) take(received);
              },
              closed() {
                preludeWait?.unsubscribe();
                if (connection === opened) connection = undefined;
                const waiting = awaiting;
                awaiting = [];
                for (const entry of waiting)
                  if (entry.kind === 'command')
                    for (const confirm of entry.confirms)
                      confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the link closed before the router answered'));
              },
            },
          );
          connection = opened;
        },
        close: () => connection?.close(),
      },
      { scheduler: context.scheduler, status: context.setStatus, timeoutMs: timeout, fence: context.fence },
    );

    /**
     * Pings a link that was quiet for a `ping` interval; one unanswered within `timeout` closes
     * it. Looked at four times an interval, so that a ping goes `ping` ms after the router was
     * last heard, not up to twice that.
     */
    const pinger = () =>
      every(context.scheduler, Math.max(250, ping / 4), () => {
        const now = context.scheduler.now();
        if (!connection || !preluded || now - lastHeard < ping || awaiting.some((entry) => entry.kind === 'ping')) return;
        expectAnswer({ kind: 'ping' }, `no answer to PING within ${timeout} ms`);
        connection.write(block('PING', []));
      });
    /** @type {{ unsubscribe(): void } | undefined} */
    let pinging;

    return {
      start() {
        grow('inputs', inputs, true);
        grow('outputs', outputs, true);
        if (ping > 0) pinging = pinger();
        return link.start();
      },
      stop() {
        pinging?.unsubscribe();
        preludeWait?.unsubscribe();
        describing?.unsubscribe();
        return link.stop();
      },
      details: () => ({ host, port, inputs: size.inputs, outputs: size.outputs, ...counts, skipped: counts.skipped + reader.longLines }),
    };
  },
});

/** The longest label written, in bytes: what the router sends back must stay well within the line this type reads. */
const MAX_LABEL_BYTES = 255;

/** @param {import('patchbay-hub/connection').Value} value */
function oneLine(value) {
  if (/[\r\n]/.test(String(value))) return 'a label is one line';
  const bytes = Buffer.byteLength(String(value));
  return bytes > MAX_LABEL_BYTES ? `a label is at most ${MAX_LABEL_BYTES} bytes, not ${bytes}` : undefined;
}
