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

  constructor(
    private readonly context: Pick<ConnectionContext, 'define'>,
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

  /** The parameter of this id, defined the first time it is asked for. */
  parameter(id: string, spec: ParameterSpec): OwnedParameter {
    let found = this.defined.get(id);
    if (!found) this.defined.set(id, (found = this.context.define(id, spec)));
    return found;
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

  /** The same choices for every parameter whose id `which` takes (the inputs of a switcher, by name). */
  offer(which: (id: string) => boolean, choices: NonNullable<ParameterMeta['choices']>): void {
    for (const [id, owned] of this.defined) if (which(id)) owned.describe({ ...owned.meta, choices });
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
