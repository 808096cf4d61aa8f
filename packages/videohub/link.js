// @ts-check
/**
 * The link to the router, as `DeviceLink` opens it: a TCP connection that is up once the
 * router has told its state (`END PRELUDE:`), not at the connect, whose blocks go to the
 * connection as they come, and whose answers (`ACK`, `NAK`) are matched to what was sent,
 * in order.
 */
import { after, HubError, TcpConnection } from 'patchbay-hub/connection';
import { BlockReader, block } from './protocol.js';

/**
 * @typedef {{ kind: 'command', confirms: ((error?: unknown) => void)[], values: (() => void)[] } | { kind: 'ping' }} Awaited
 * What an ACK or NAK settles, oldest first: a block of commands (with what to report once
 * the router took it), or a ping.
 */

/** @typedef {import('patchbay-hub/connection').LinkProtocol} LinkProtocol */

/** @implements {LinkProtocol} */
export class RouterLink {
  #scheduler;
  #target;
  #take;
  /** @type {TcpConnection | undefined} */
  #connection;
  /** @type {import('patchbay-hub/connection').LinkAttempt | undefined} */
  #attempt;
  #reader = new BlockReader();
  /** Lines too long skipped by the readers of earlier connects. */
  #longLinesBefore = 0;
  /** @type {Awaited[]} */
  #awaiting = [];
  #preluded = false;
  /** @type {{ unsubscribe(): void } | undefined} */
  #preludeWait;
  #lastHeard = 0;

  /**
   * @param {import('patchbay-hub/connection').Scheduler} scheduler
   * @param {{ host: string, port: number, timeout: number, connectTimeout: number }} target
   * @param {(received: import('./protocol.js').Block) => void} take what to do with each block the router sends
   */
  constructor(scheduler, target, take) {
    this.#scheduler = scheduler;
    this.#target = target;
    this.#take = take;
  }

  /** Whether the router's state of this connect is read (its END PRELUDE came). */
  get preluded() {
    return this.#preluded;
  }

  /** Lines skipped as too long since the start. */
  get longLines() {
    return this.#longLinesBefore + this.#reader.longLines;
  }

  /** @param {import('patchbay-hub/connection').LinkAttempt} attempt */
  open(attempt) {
    const { host, port, connectTimeout } = this.#target;
    this.#attempt = attempt;
    this.#longLinesBefore += this.#reader.longLines;
    this.#reader = new BlockReader();
    this.#awaiting = [];
    this.#preluded = false;
    const opened = TcpConnection.open(
      // Up once the router has told its state (END PRELUDE), not at the TCP connect.
      { up: () => {}, down: (reason) => attempt.down(reason) },
      { host, port, connectTimeout },
      {
        connected: () => {
          this.#preludeWait = after(this.#scheduler, connectTimeout, () =>
            opened.close(`${host}:${port} sent no state (END PRELUDE) within ${connectTimeout} ms: is it a Videohub?`),
          );
        },
        data: (chunk) => this.#read(opened, chunk),
        closed: () => this.#closed(opened),
      },
    );
    this.#connection = opened;
  }

  close() {
    this.#connection?.close();
  }

  /**
   * The router's state is read: `known` runs, and then the link is up.
   * @param {() => void} known
   */
  ready(known) {
    if (this.#preluded) return;
    this.#preluded = true;
    this.#preludeWait?.unsubscribe();
    known();
    this.#attempt?.up();
  }

  /** Stops waiting for the router's state. */
  stopWaiting() {
    this.#preludeWait?.unsubscribe();
  }

  /**
   * Sends a block of commands, to be answered after what was sent before it; false when no connection is open.
   * @param {string} title
   * @param {string[]} lines
   * @param {Awaited & { kind: 'command' }} entry
   */
  send(title, lines, entry) {
    const connection = this.#connection;
    if (!connection) return false;
    this.#expectAnswer(entry, `no answer to a command within ${this.#target.timeout} ms`);
    connection.send(block(title, lines), (error) => {
      if (error) for (const confirm of entry.confirms) confirm(error);
    });
    return true;
  }

  /** What an ACK or NAK answers: the oldest block sent and not yet answered. */
  answered() {
    return this.#awaiting.shift();
  }

  /**
   * Pings a link quiet for `interval` ms, unless a ping is out already; one unanswered within
   * the timeout closes the link.
   * @param {number} interval
   */
  pingIfQuiet(interval) {
    const connection = this.#connection;
    const now = this.#scheduler.now();
    if (!connection || !this.#preluded || now - this.#lastHeard < interval || this.#awaiting.some((entry) => entry.kind === 'ping')) return;
    this.#expectAnswer({ kind: 'ping' }, `no answer to PING within ${this.#target.timeout} ms`);
    connection.write(block('PING', []));
  }

  /**
   * Waits for the answer to what is about to be sent. Answers come in the order of what
   * they answer: one that does not come within `timeout` leaves every later one unmatched,
   * so the link closes, and its next connect reads the router's state afresh.
   * @param {Awaited} entry
   * @param {string} reason
   */
  #expectAnswer(entry, reason) {
    this.#awaiting.push(entry);
    const sentOn = this.#connection;
    after(this.#scheduler, this.#target.timeout, () => {
      if (sentOn && this.#connection === sentOn && this.#awaiting.includes(entry)) sentOn.close(reason);
    });
  }

  /**
   * @param {TcpConnection} opened
   * @param {Buffer} chunk
   */
  #read(opened, chunk) {
    this.#lastHeard = this.#scheduler.now();
    let blocks;
    try {
      blocks = this.#reader.read(chunk);
    } catch (error) {
      return opened.close(/** @type {Error} */ (error).message);
    }
    for (const received of blocks) this.#take(received);
  }

  /** @param {TcpConnection} opened */
  #closed(opened) {
    this.#preludeWait?.unsubscribe();
    if (this.#connection === opened) this.#connection = undefined;
    const waiting = this.#awaiting;
    this.#awaiting = [];
    for (const entry of waiting)
      if (entry.kind === 'command')
        for (const confirm of entry.confirms) confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the link closed before the router answered'));
  }
}
