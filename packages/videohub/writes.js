// @ts-check
/**
 * Writes to the router: each sent at the end of the turn it came in, with the other writes
 * of that turn of the same kind in one block (a salvo of 40 routes is one command), and
 * answered when the router answers the block.
 */
import { afterTurn, HubError } from 'patchbay-hub/connection';

/** @typedef {{ lines: string[], confirms: ((error?: unknown) => void)[], values: (() => void)[] }} Due */

export class Writes {
  #link;
  #router;
  /** Commands of this turn, by block title: sent as one block when the turn ends. @type {Map<string, Due>} */
  #due = new Map();
  #acknowledged = 0;
  #refused = 0;

  /**
   * @param {Pick<import('patchbay-hub/connection').DeviceLink, 'write'>} link what lets a write through (up, fenced, timed)
   * @param {Pick<import('./link.js').RouterLink, 'send'>} router where blocks go
   */
  constructor(link, router) {
    this.#link = link;
    this.#router = router;
  }

  /** Blocks the router acknowledged, and refused (NAK). */
  get counts() {
    return { acknowledged: this.#acknowledged, refused: this.#refused };
  }

  /**
   * Queues a line of a command block for the end of the turn; `report` runs once the router took it.
   * @param {string} title
   * @param {string} line
   * @param {() => void} report
   * @param {import('patchbay-hub/connection').Answered | undefined} answered
   */
  command(title, line, report, answered) {
    return this.#link.write((confirm) => {
      let entry = this.#due.get(title);
      if (!entry) {
        if (this.#due.size === 0) afterTurn(() => this.#sendDue());
        this.#due.set(title, (entry = { lines: [], confirms: [], values: [] }));
      }
      entry.lines.push(line);
      entry.confirms.push(confirm);
      entry.values.push(report);
    }, answered);
  }

  /**
   * An ACK or NAK of `oldest`, the block it answers (a ping's answer settles nothing).
   * @param {import('./link.js').Awaited | undefined} oldest
   * @param {boolean} acknowledged
   */
  settle(oldest, acknowledged) {
    if (!oldest || oldest.kind === 'ping') return;
    if (acknowledged) this.#acknowledged++;
    else this.#refused++;
    if (acknowledged) for (const report of oldest.values) report();
    for (const confirm of oldest.confirms)
      confirm(
        acknowledged
          ? undefined
          : new HubError('PB_BAD_ANSWER', 'the router answered NAK: it did not take the command', { declared: 'VIDEOHUB_NAK' }),
      );
  }

  #sendDue() {
    for (const [title, { lines, confirms, values }] of this.#due) {
      if (!this.#router.send(title, lines, { kind: 'command', confirms, values }))
        for (const confirm of confirms) confirm(new HubError('PB_DEVICE_UNAVAILABLE', 'the link closed'));
    }
    this.#due.clear();
  }
}
