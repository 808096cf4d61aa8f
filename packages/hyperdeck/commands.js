// @ts-check
/**
 * The deck's commands as parameters: each defined once on `CommandedParameters` (kept across
 * reconnects), each write one or more commands of the library through the link, answered
 * with the deck's outcome — its refusal as this type's own code (R-PK8).
 */
import { CommandedParameters, HubError } from 'patchbay-hub/connection';

/** @typedef {import('hyperdeck-connection').Commands.AbstractCommand<unknown>} Command */
/** @typedef {import('patchbay-hub/connection').Value} Value */
/** @typedef {import('patchbay-hub/connection').ParameterMeta} ParameterMeta */
/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

/**
 * The deck's refusal (the library rejects with its answer: `{ code, name }`) as this type's
 * own code (R-PK8), or the hub's timeout and link errors as they are.
 * @param {unknown} answer
 * @param {string} what
 */
export function refusal(answer, what) {
  if (answer instanceof HubError) return answer;
  // The library's own refusal to send (a command it cannot write): its message says why.
  if (answer instanceof Error) return new HubError('PB_BAD_ANSWER', `${what}: ${answer.message}`, { declared: 'HYPERDECK_REFUSED' });
  const { code, name } = /** @type {{ code?: unknown, name?: unknown }} */ (answer ?? {});
  const said = `the deck refused ${what}: ${typeof name === 'string' ? name : 'no reason'}${typeof code === 'number' ? ` (${code})` : ''}`;
  const declared =
    code === 111
      ? 'HYPERDECK_REMOTE_DISABLED'
      : code === 104 || code === 105 || code === 106
        ? 'HYPERDECK_DISK'
        : code === 101 || code === 103
          ? 'HYPERDECK_UNSUPPORTED'
          : 'HYPERDECK_REFUSED';
  return new HubError('PB_BAD_ANSWER', said, { declared });
}

export class DeckCommands {
  #deck;
  #link;
  #log;
  parameters;

  /**
   * @param {Pick<import('patchbay-hub/connection').ConnectionContext, 'define' | 'problem' | 'log'>} context
   * @param {Pick<import('patchbay-hub/connection').ClientLink, 'command'>} link
   * @param {Pick<import('hyperdeck-connection').Hyperdeck, 'sendCommand'>} deck
   */
  constructor(context, link, deck) {
    this.#deck = deck;
    this.#link = link;
    this.#log = context.log;
    this.parameters = new CommandedParameters(context, link);
  }

  /**
   * Sends commands in order, each once the deck answered the one before; its refusal names `what`.
   * @template T
   * @param {string} what
   * @param {import('hyperdeck-connection').Commands.AbstractCommand<T>} command
   * @returns {Promise<T>}
   */
  send(what, command) {
    return this.#deck.sendCommand(command).catch((/** @type {unknown} */ error) => Promise.reject(refusal(error, what)));
  }

  /**
   * A query whose failure is logged, not thrown: a deck that lacks it (an older protocol) keeps the rest.
   * @template T
   * @param {string} what
   * @param {import('hyperdeck-connection').Commands.AbstractCommand<T>} command
   * @returns {Promise<T | undefined>}
   */
  ask(what, command) {
    return this.send(what, command).catch((error) => {
      this.#log.warn(`reading ${what} failed: ${HubError.prototype.toString.call(error)}`);
      return undefined;
    });
  }

  /**
   * Runs `run` as a write's command, through the link.
   * @param {() => Promise<unknown>} run @param {import('patchbay-hub/connection').Answered | undefined} answered
   */
  command(run, answered) {
    return this.#link.command(run, answered);
  }

  /** @param {string} id @param {import('patchbay-hub/connection').CommandedSpec} spec */
  readOnly(id, spec) {
    return this.parameters.readOnly(id, spec);
  }

  /**
   * A setting of the deck a write commands and the deck reports back.
   * @param {string} id @param {import('patchbay-hub/connection').CommandedSpec} spec @param {(value: Value) => Command} make
   */
  setting(id, spec, make) {
    // `make` may refuse a value (a HubError) before anything is sent.
    return this.parameters.commanded(id, spec, async (value) => this.send(`${id} ${value}`, make(value)));
  }

  /** @param {string} id @param {string} label @param {() => Command} make */
  trigger(id, label, make) {
    return this.parameters.trigger(id, { label }, () => this.send(id, make()));
  }

  /**
   * An order with a value that the deck does not report back: a write sends `make(value)`'s
   * commands in order; `problem` says why a value is refused before anything is sent.
   * @param {string} id
   * @param {{ type: 'S' | 'I' | 'B', meta: ParameterMeta }} spec
   * @param {(value: Value) => Command[]} make
   * @param {(value: Value) => string | undefined} [problem]
   */
  order(id, spec, make, problem) {
    return this.parameters.order(
      id,
      spec,
      async (value) => {
        for (const command of make(value)) await this.send(`${id} ${value}`, command);
      },
      problem && { refuse: problem },
    );
  }
}
