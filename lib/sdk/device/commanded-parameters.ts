/**
 * The parameters of a device reached through a client library (R-PK7): each defined once,
 * the first time the type asks for it — when the device has said it has the thing — and kept
 * across reconnects, so rules and dashboards that follow it never see it go; a write of one
 * is a command of the library, sent through the link (refused while the device is away,
 * fenced, answered when the library's promise settles, PB_DEVICE_TIMEOUT when it never
 * does). `DeviceParameters` is the same for devices the type speaks to itself, message by
 * message; this is for libraries whose calls return a promise.
 */
import { HubError } from '../../core/errors.ts';
import type { Answered, OwnedParameter, ParameterMeta, ParameterSpec, SetResult } from '../../core/parameter.ts';
import type { Value } from '../../core/value.ts';
import type { ConnectionContext } from '../context.ts';
import type { LinkState } from './link-state.ts';

/** A command of the library: its promise settles when the device took it (or refused). */
export type Command = (value: Value) => Promise<unknown>;

/** What a commanded or read-only parameter is made as: its type and what it says of itself. */
export type CommandedSpec = Omit<ParameterSpec, 'access' | 'forward' | 'ownedHere'>;

export interface CommandOptions {
  /** Why a value is refused before anything is sent (400 PB_CONVERSION, the id and this reason), or undefined to send it. */
  readonly refuse?: (value: Value) => string | undefined;
}

export class CommandedParameters {
  private readonly defined = new Map<string, OwnedParameter>();
  /** The command of each parameter: the last one given, so a command may use what a reconnect brought. */
  private readonly commands = new Map<string, Command>();
  /** The choices offered, by the pattern of ids they are for: the latest of each, for parameters defined later too. */
  private readonly offers = new Map<string, { readonly ids: RegExp; readonly choices: NonNullable<ParameterMeta['choices']> }>();

  constructor(
    private readonly context: Pick<ConnectionContext, 'define' | 'problem'>,
    private readonly link: Pick<LinkState, 'command'>,
  ) {}

  has(id: string): boolean {
    return this.defined.has(id);
  }

  get(id: string): OwnedParameter | undefined {
    return this.defined.get(id);
  }

  /** Every parameter defined, by id. */
  entries(): IterableIterator<[string, OwnedParameter]> {
    return this.defined.entries();
  }

  /**
   * The parameter of this id, defined the first time it is asked for, with the choices
   * offered for its id. What it says of itself that the hub refuses (a choice that does not
   * convert to its type, a device's name read as one) is a problem of the connection,
   * `parameter <id>`, and the parameter is made without it: one odd name on a device does
   * not end the read of the rest. An id the hub refuses is a problem too, then thrown.
   */
  parameter(id: string, spec: ParameterSpec): OwnedParameter {
    const found = this.defined.get(id);
    if (found) return found;
    const offered = this.offerFor(id);
    const wanted = offered ? { ...spec, meta: { ...spec.meta, choices: offered } } : spec;
    let made: OwnedParameter;
    try {
      made = this.context.define(id, wanted);
      this.context.problem(`parameter ${id}`, undefined);
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      this.context.problem(`parameter ${id}`, { code: error.code, message: `${id}: ${error.message}` });
      if (wanted.meta === undefined && wanted.initial === undefined) throw error;
      const { meta: _refused, initial: _unconverted, ...plain } = wanted;
      made = this.context.define(id, plain);
    }
    this.defined.set(id, made);
    return made;
  }

  /** A setting of the device a write commands and the device reports back. */
  commanded(id: string, spec: CommandedSpec, command: Command, options: CommandOptions = {}): OwnedParameter {
    this.commands.set(id, command);
    return this.parameter(id, { ...spec, access: 'read-write', ownedHere: true, forward: this.forwardOf(id, options) });
  }

  /**
   * An order with a value that the device does not report back (go to a clip, skip three):
   * write-only, each write the command.
   */
  order(id: string, spec: CommandedSpec, command: Command, options: CommandOptions = {}): OwnedParameter {
    this.commands.set(id, command);
    return this.parameter(id, { ...spec, access: 'write-only', ownedHere: true, forward: this.forwardOf(id, options) });
  }

  /**
   * An action of the device: a trigger whose write is the command. `meta` is what it says of
   * itself (a label at least); a label that changed since (a macro renamed on the device) is
   * said again.
   */
  trigger(id: string, meta: ParameterMeta & { readonly label: string }, command: () => Promise<unknown>): OwnedParameter {
    this.commands.set(id, command);
    const made = this.parameter(id, {
      type: 'T',
      access: 'write-only',
      meta,
      ownedHere: true,
      forward: (_value, _origin, answered) => this.link.command(() => this.commandOf(id)(true), answered),
    });
    if (made.meta?.label !== meta.label) made.describe({ ...made.meta, ...meta });
    return made;
  }

  /** What the device says and nothing writes. */
  readOnly(id: string, spec: CommandedSpec): OwnedParameter {
    return this.parameter(id, { ...spec, access: 'read-only' });
  }

  /**
   * The same choices for every parameter whose id `ids` matches (the inputs of a switcher,
   * by name), those defined now and those defined later; offered again for the same
   * pattern, the latest choices replace the last.
   */
  offer(ids: RegExp, choices: NonNullable<ParameterMeta['choices']>): void {
    this.offers.set(`${ids.source}/${ids.flags}`, { ids, choices });
    for (const [id, owned] of this.defined) {
      if (!matches(ids, id)) continue;
      try {
        owned.describe({ ...owned.meta, choices });
        this.context.problem(`parameter ${id}`, undefined);
      } catch (error) {
        if (!(error instanceof HubError)) throw error;
        this.context.problem(`parameter ${id}`, { code: error.code, message: `${id}: ${error.message}` });
      }
    }
  }

  private offerFor(id: string): NonNullable<ParameterMeta['choices']> | undefined {
    let latest: NonNullable<ParameterMeta['choices']> | undefined;
    for (const { ids, choices } of this.offers.values()) if (matches(ids, id)) latest = choices;
    return latest;
  }

  private commandOf(id: string): Command {
    return this.commands.get(id) as Command;
  }

  private forwardOf(id: string, { refuse }: CommandOptions) {
    return (value: Value, _origin: string | undefined, answered: Answered | undefined): SetResult => {
      const why = refuse?.(value);
      if (why !== undefined) return { ok: false, error: new HubError('PB_CONVERSION', `${id}: ${why}`) };
      return this.link.command(() => this.commandOf(id)(value), answered);
    };
  }
}

/** Whether `ids` matches `id`, whatever its `lastIndex` (a global or sticky pattern keeps one). */
function matches(ids: RegExp, id: string): boolean {
  ids.lastIndex = 0;
  return ids.test(id);
}
