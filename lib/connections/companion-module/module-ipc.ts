/**
 * The hub's end of a Companion module's wire (R-CM1, companion-wire.ts): the process kit's
 * `Channel` with Companion's codec, typed by the base's host API, a long payload read without
 * holding the hub's loop (payload-reading.ts) — the channel still handles messages in the
 * order they came. Its channel is read by the kit's `ChildLink`: junk on it ends the module,
 * not the hub; only flat records are read.
 */
import { Channel, type Handlers, type Scheduler } from '../../sdk/index.ts';
import { companionCodec, type HostToModule, type ModuleToHost } from './companion-wire.ts';
import { LONG_PAYLOAD, PayloadReader } from './payload-reading.ts';

/**
 * What the module may call, by name: each answers with a value, or throws to refuse. Each
 * takes what the module sent as `unknown`, and checks it where it uses it.
 */
export type ModuleCalls = Partial<Handlers<ModuleToHost>>;

export class ModuleIpc extends Channel<HostToModule, ModuleToHost> {
  private readonly reader: PayloadReader;

  /** `send` puts a message on the module's channel. */
  constructor(send: (message: unknown) => void, calls: ModuleCalls, scheduler: Scheduler) {
    const reader = new PayloadReader();
    const codec = companionCodec({ long: LONG_PAYLOAD, read: (text, parse) => reader.read(text, parse) });
    // A name the module calls that has no handler here is refused as unknown.
    super({ send, handlers: calls as Handlers<ModuleToHost>, scheduler, called: 'the module', codec });
    this.reader = reader;
  }

  /** Fails every call still waiting: the module is gone. */
  override close(reason: string): void {
    super.close(reason);
    this.reader.stop();
  }
}
