/**
 * A connection in a process of its own (R-PK4): the entry point the hub starts. It loads the
 * type, runs one instance of it against a graph of its own parameters (session.ts), and tells
 * the hub every definition and change (outbox.ts); the hub's writes come back here, all on the
 * process kit's channel. It ends when the hub asks, and by itself when the hub is gone (its
 * IPC channel closes), so no process outlives its hub.
 */
import { pathToFileURL } from 'node:url';
import { withSamples } from '../../config/package-type.ts';
import { HubError, reasonOf } from '../../core/errors.ts';
import { realTime } from '../../core/scheduler.ts';
import { fillDefaults, type Parsed } from '../../sdk/settings.ts';
import type { DefinedConnectionType, TypedInstance } from '../../sdk/type.ts';
import { Channel, ownCodec } from '../../sdk/process/channel.ts';
import type { ChildToHub, HubToChild, StartPayload, WireError } from './messages.ts';
import { Outbox } from './outbox.ts';
import { Session } from './session.ts';

// Its changes go on the wire to the hub (made below: what the outbox sends, it sends when it runs).
const outbox = new Outbox({
  call: (name, payload) => hub.call(name, payload),
  tell: (name, payload) => hub.tell(name, payload),
});

/** Ends the process once the hub has been told why (or after a second, if it cannot be). */
function crash(reason: string, error: unknown): void {
  // The real clock: the child's own last resort, with no hub (nor its scheduler) in this process.
  setTimeout(() => process.exit(1), 1000).unref();
  outbox.flush();
  // Sent on Node's own channel, whose callback says when it is out: the channel's form, by hand.
  const told = ownCodec.encode({
    kind: 'call',
    name: 'crash',
    id: undefined,
    payload: { reason, stack: error instanceof Error ? error.stack : undefined },
  });
  process.send?.(told, undefined, undefined, () => process.exit(1));
}
process.on('uncaughtException', (error) => crash(`it threw: ${reasonOf(error)}`, error));
process.on('unhandledRejection', (error) => crash(`a promise it made was rejected and nobody handled it: ${reasonOf(error)}`, error));
/** An error as it crosses to the hub: the hub's own, or PB_START_FAILED with its reason. */
const asWired = (error: unknown): HubError => (error instanceof HubError ? error : new HubError('PB_START_FAILED', reasonOf(error)));
const wire = (error: unknown): WireError => {
  const failure = asWired(error);
  return { code: failure.code, message: failure.message, ...(failure.declared === undefined ? {} : { declared: failure.declared }) };
};

// The hub is gone (stopped, killed, crashed): so is this process.
process.on('disconnect', () => process.exit(0));

let instance: TypedInstance<unknown> | undefined;
let session: Session | undefined;
let running: { readonly definition: DefinedConnectionType<never, unknown>; readonly start: StartPayload } | undefined;

/** The hub's end of the wire: what it asks, handled here; what this process tells it goes through the outbox, in order. */
const hub: Channel<ChildToHub, HubToChild> = new Channel<ChildToHub, HubToChild>({
  // Whatever goes — a message, an answer — goes after the changes that wait, so it overtakes none.
  send: (message) => {
    outbox.flush();
    process.send?.(message);
  },
  scheduler: realTime,
  called: 'the hub',
  handlers: {
    start: (payload) => void start(payload),
    ping: () => safeDetails() ?? null,
    stop: ({ reason }) => void stop(reason),
    update: ({ settings }) => update(settings),
    write: (payload) => {
      if (!session) throw new HubError('PB_DEVICE_UNAVAILABLE', 'its connection has not started');
      return session.write(payload);
    },
    running: () => session?.runs(),
    fence: (fence) => session?.fenced(fence),
  },
});
process.on('message', (message) => hub.received(message));

/** Its details as JSON, which is all the hub takes, with its metrics' samples, which the hub cannot make (package-type.ts). */
function safeDetails(): Readonly<Record<string, unknown>> | undefined {
  try {
    const details = instance?.details?.();
    const sampled = running ? withSamples(running.definition, details) : details;
    return sampled === undefined ? undefined : (JSON.parse(JSON.stringify(sampled)) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** Settings parsed by the type, as the hub parsed them before it sent them. */
function parsedBy(
  definition: DefinedConnectionType<never, unknown>,
  { id, baseDir }: StartPayload,
  settings: Readonly<Record<string, unknown>>,
): unknown {
  const parsed = definition.parse(fillDefaults(definition.settings, settings) as Parsed<typeof definition.settings>, { id, baseDir });
  if (parsed.ok) return parsed.value;
  const first = parsed.issues[0];
  throw new HubError('PB_START_FAILED', `its settings were refused in its own process: ${first ? first.message : 'no reason given'}`);
}

async function start(message: StartPayload): Promise<void> {
  try {
    const definition = await definitionOf(message);
    const settings = parsedBy(definition, message, message.settings);
    running = { definition, start: message };
    session = new Session(message, hub, outbox);
    instance = definition.create(session.context, settings);
    await instance.start();
    hub.tell('started', null);
  } catch (error) {
    hub.tell('failed', wire(error));
  }
}

/** New settings for a running instance: taken in place when its type can (`update`), else the hub restarts it. */
async function update(settings: Readonly<Record<string, unknown>>): Promise<boolean> {
  try {
    return running && instance?.update ? await instance.update(parsedBy(running.definition, running.start, settings)) : false;
  } catch (error) {
    throw asWired(error);
  }
}

async function stop(reason: 'stop' | 'restart'): Promise<void> {
  try {
    await instance?.stop(reason);
  } catch (error) {
    hub.tell('log', { line: JSON.stringify({ level: 50, msg: `stop failed: ${reasonOf(error)}` }) });
  }
  instance = undefined;
  hub.tell('stopped', null);
  process.disconnect?.();
}

async function definitionOf({ module, type }: StartPayload): Promise<DefinedConnectionType<never, unknown>> {
  // The list of built-in types loads every one of them and their native modules: only a
  // built-in type run in a process of its own needs it.
  const definition =
    module === undefined
      ? (await import('../../config/connection-types.ts')).builtInDefinition(type)
      : ((await import(pathToFileURL(module).href)) as { default?: DefinedConnectionType<never, unknown> }).default;
  if (!definition || definition.type !== type)
    throw new HubError('PB_PLUGIN_LOAD', `the module ${module ?? '(built in)'} does not export the type "${type}"`);
  return definition as DefinedConnectionType<never, unknown>;
}
