/**
 * `ember-provider`: an Ember+ provider over TCP serving the hub's parameters that match
 * `expose` (R-E1). Each `/` of an address is a node and the parameter a leaf: B boolean,
 * I integer, F real, S string parameters with the parameter's access, a trigger a function
 * without arguments that fires it when invoked. Consumers that ask for a node (GetDirectory)
 * or subscribe get every change below it; a consumer's setValue is a hub write (R-C
 * conversion, origin `ember <peer>`), and the writer is always sent the hub's value after, so
 * a refused write leaves it at the hub's. Parameters that appear are announced; parameters that
 * go are shown offline. Numbers stay with addresses across reloads and restarts (see
 * `ExposedTree`). Many consumers at once; one that stops reading is cut off past a bound.
 * The matrices it declares (`matrices`) are served as Ember+ matrices at `<connection>/<id>`,
 * held in parameters of its own (see `ServedMatrix`); a consumer's connect is a hub write.
 *
 * Parameters, for each matrix:
 *   <id>/targets/<t>/source    I   read-write   oneToN, oneToOne: the source on target t, -1 none
 *   <id>/targets/<t>/sources   S   read-write   nToN: the sources on target t, "1,4"
 */
import { Type } from '@sinclair/typebox';
import type { Model } from 'emberplus-connection';
import type { Subscription } from 'rxjs';
import { AddressPatterns } from '../../core/address-pattern.ts';
import { checkParameterId } from '../../core/address.ts';
import {
  allowSetting,
  checked,
  defineConnectionType,
  type Issue,
  openListenerWarnings,
  type Parameter,
  Peers,
  TcpListener,
  withDefault,
} from '../../sdk/index.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import type { Value, ValueType } from '../../core/value.ts';
import {
  CommandNumber,
  type EmberConnection,
  type EmberElement,
  type EmberValue,
  ElementType,
  elementsMessage,
  functionContents,
  invocationResultMessage,
  KEEPALIVE_RESPONSE,
  type Met,
  nodeContents,
  numbered,
  ParameterAccess,
  ParameterType,
  parameterContents,
  parentPath,
  qualified,
} from '../../protocols/ember-plus.ts';
import { EmberReceiver } from '../../protocols/ember-decoding.ts';
import { ConsumerSession } from './consumer-session.ts';
import { type Entry, ExposedTree, type Leaf, type MatrixEntry } from './exposed-tree.ts';
import { matrixDeclaration, ServedMatrix } from './served-matrix.ts';

/**
 * Paths one consumer may follow at most: a tree's nodes and parameters it watches. Past it,
 * it is cut off: a million Subscribes must not cost a million entries.
 */
const SUBSCRIPTIONS_AT_MOST = 10_000;
/**
 * Requests (commands and elements) one consumer may send in a second: a desk sends tens, a
 * tree read some thousands. Past it, it is cut off rather than hold the hub.
 */
const REQUESTS_PER_SECOND = 20_000;
/** Messages of one consumer dropped (malformed, past a bound) before it is cut off. */
const DROPPED_AT_MOST = 100;
/**
 * A consumer's message at most, by default: commands and values, a few hundred bytes each. It
 * is also what one consumer may leave waiting as a message whose last frame never comes.
 */
const CONSUMER_MESSAGE_BYTES = 64 * 1024;

const settings = Type.Object({
  port: withDefault(Type.Integer({ minimum: 0, maximum: 65535, description: 'TCP port consumers connect to; 0 picks a free one.' }), 9000),
  bindIp: withDefault(Type.String({ description: 'The address to listen on; empty listens on every interface.' }), ''),
  expose: withDefault(
    Type.Array(Type.String({ minLength: 1, description: 'An address pattern (`studio/#`, `+/onair`).' }), {
      description: 'Address patterns of the parameters to serve; none by default.',
    }),
    [],
  ),
  write: withDefault(
    Type.Array(Type.String({ minLength: 1, description: 'An address pattern (`studio/#`, `+/onair`).' }), {
      description:
        "Address patterns of the served parameters (and matrices' targets) a consumer may change: setValue, invoke, connect; none by default (Ember+ has no credentials: what this lets, anyone who reaches the port may).",
    }),
    [],
  ),
  allow: allowSetting,
  maxConsumers: withDefault(
    Type.Integer({ minimum: 1, maximum: 1024, description: 'Consumers connected at once at most; one more is closed at once.' }),
    64,
  ),
  maxQueuedBytes: withDefault(
    Type.Integer({ minimum: 1024, description: 'Bytes that may wait for one consumer; a consumer that stops reading is cut off past it.' }),
    8 * 1024 * 1024,
  ),
  maxMessageBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      description:
        'Bytes of one message from a consumer, all its frames together; a larger one is dropped. A consumer asks and sets: its messages are small.',
    }),
    CONSUMER_MESSAGE_BYTES,
  ),
  matrices: withDefault(
    Type.Array(matrixDeclaration, {
      description: 'Matrices (routers) to serve, each held in parameters `<id>/targets/<t>/source` (or `sources` for nToN).',
    }),
    [],
  ),
});

const EMBER_TYPES: Record<Exclude<ValueType, 'T'>, Model.ParameterType> = {
  B: ParameterType.Boolean,
  I: ParameterType.Integer,
  F: ParameterType.Real,
  S: ParameterType.String,
};

const ACCESS = {
  'read-only': ParameterAccess.Read,
  'write-only': ParameterAccess.Write,
  'read-write': ParameterAccess.ReadWrite,
} as const;

export const emberProviderType = defineConnectionType({
  type: 'ember-provider',
  summary: 'Serves the hub’s parameters to Ember+ consumers as a tree, taking their writes.',
  settings,
  parse(written) {
    const patterns = AddressPatterns.compile(written.expose);
    if (!patterns.ok) return { ok: false, issues: [{ path: ['expose'], message: patterns.error.message }] };
    const writable = AddressPatterns.compile(written.write);
    if (!writable.ok) return { ok: false, issues: [{ path: ['write'], message: writable.error.message }] };
    const peers = Peers.compile(written.allow);
    if (Array.isArray(peers)) return { ok: false, issues: peers };
    const issues: Issue[] = [];
    const ids = new Set<string>();
    written.matrices.forEach(({ id }, index) => {
      const checkedId = checkParameterId(`${id}/targets/0/source`);
      if (!checkedId.ok) issues.push({ path: ['matrices', index, 'id'], message: `not a parameter id: ${checkedId.error.message}` });
      else if ([...ids].some((other) => other === id || other.startsWith(`${id}/`) || id.startsWith(`${other}/`)))
        issues.push({ path: ['matrices', index, 'id'], message: `"${id}" is taken by another matrix, or holds one` });
      ids.add(id);
    });
    return checked(issues, { ...written, patterns: patterns.value, writable: writable.value, peers });
  },
  // Every machine that reaches this one may change what `write` lets: worth a warning, as the rest-api gives.
  warn: (settings) =>
    settings.write.length > 0 ? openListenerWarnings(settings, 'change what `write` matches (Ember+ has no credentials)') : [],
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }]),
  metrics: [
    {
      name: 'patchbay_ember_provider_consumers',
      help: 'Consumers connected to an ember-provider.',
      kind: 'gauge',
      samples: (details) => [{ value: Number(details['consumers'] ?? 0) }],
    },
    {
      name: 'patchbay_ember_provider_cut_off_total',
      help: 'Consumers an ember-provider cut off because they stopped reading.',
      kind: 'counter',
      samples: (details) => [{ value: Number(details['cutOff'] ?? 0) }],
    },
  ],
  create(
    context,
    {
      port,
      bindIp,
      expose,
      write: writePatterns,
      patterns,
      writable,
      peers,
      maxConsumers,
      maxQueuedBytes,
      maxMessageBytes,
      matrices: declared,
    },
  ) {
    const tree = new ExposedTree(context.records);
    const matrices = declared.map((declaration) => new ServedMatrix(context, declaration));
    /** A matrix's parameters are served as the matrix, not as parameters of their own. */
    const matrixParameters = new Set(matrices.flatMap((matrix) => matrix.targets.map((parameter) => parameter.address)));
    const sessions = new Set<ConsumerSession>();
    /** Who follows each numbered path. */
    const followers = new Map<string, Set<ConsumerSession>>();
    const follows = new Map<string, Subscription>();
    const ignored = new SparseLog(context.log, context.scheduler, 'ignored');
    let graphWatch: Subscription | undefined;
    let cutOff = 0;
    let dropped = 0;
    const refusals = new SparseLog(context.log, context.scheduler, 'refused');
    /** What a consumer may change: the parameter takes writes and `write` matches it. */
    const mayWrite = (parameter: Parameter) => parameter.access !== 'read-only' && writable.matches(parameter.address);
    const refuse = (session: ConsumerSession, parameter: Parameter) =>
      refusals.warn(`${session.origin} may not change ${parameter.address}: \`write\` does not let it (or it is read-only)`);

    const contentsOf = (entry: Entry): EmberElement => {
      if (entry.kind === 'node') return nodeContents(entry.identifier);
      if (entry.kind === 'matrix') return entry.matrix.contents(entry.identifier);
      const { parameter } = entry;
      if (parameter.type === 'T') return functionContents(entry.identifier);
      return parameterContents(EMBER_TYPES[parameter.type], {
        identifier: entry.identifier,
        ...valueField(parameter.value),
        // What consumers may do with it: a parameter `write` leaves out is read-only to them.
        access: mayWrite(parameter)
          ? ACCESS[parameter.access]
          : parameter.access === 'write-only'
            ? ParameterAccess.None
            : ParameterAccess.Read,
        ...(entry.online ? {} : { isOnline: false }),
      });
    };
    const valueMessage = (leaf: Leaf, value: Value | undefined): Buffer =>
      elementsMessage([qualified(leaf.path, parameterContents(EMBER_TYPES[leaf.parameter.type as 'B'], valueField(value)))]);

    /** Sends to everyone who follows the element at `path` or its parent, once each. */
    const tell = (path: string, message: Buffer) => {
      const above = followers.get(parentPath(path));
      if (above) for (const session of above) session.send(message);
      const at = followers.get(path);
      if (at) for (const session of at) if (!above?.has(session)) session.send(message);
    };

    const follow = (parameter: Parameter) => {
      if (follows.has(parameter.address) || !patterns.matches(parameter.address) || matrixParameters.has(parameter.address)) return;
      for (const entry of tree.add(parameter)) tell(entry.path, elementsMessage([qualified(entry.path, contentsOf(entry))]));
      const leaf = tree.leafOf(parameter.address) as Leaf;
      if (parameter.type === 'T') return void follows.set(parameter.address, { unsubscribe() {} } as Subscription);
      follows.set(
        parameter.address,
        parameter.changes$.subscribe((value) => tell(leaf.path, valueMessage(leaf, value))),
      );
    };
    const unfollow = (address: string) => {
      follows.get(address)?.unsubscribe();
      follows.delete(address);
      const leaf = tree.remove(address);
      if (leaf) tell(leaf.path, elementsMessage([qualified(leaf.path, contentsOf(leaf))]));
    };

    /** Follows the element at `path` for the consumer: nothing is kept for a path that names nothing. */
    const subscribe = (session: ConsumerSession, path: string) => {
      if (tree.at(path) === undefined || session.subscriptions.has(path)) return;
      if (session.subscriptions.size >= SUBSCRIPTIONS_AT_MOST)
        return cutOffFor(session, `it follows ${SUBSCRIPTIONS_AT_MOST} paths, the most one may`);
      session.subscriptions.add(path);
      const set = followers.get(path) ?? new Set();
      set.add(session);
      followers.set(path, set);
    };
    /** Takes the consumer off a path's followers; a path nobody follows any more is let go. */
    const unfollowPath = (session: ConsumerSession, path: string) => {
      const set = followers.get(path);
      if (set?.delete(session) && set.size === 0) followers.delete(path);
    };
    const unsubscribe = (session: ConsumerSession, path: string) => {
      session.subscriptions.delete(path);
      unfollowPath(session, path);
    };
    const forget = (session: ConsumerSession) => {
      sessions.delete(session);
      for (const path of session.subscriptions) unfollowPath(session, path);
    };

    const directory = (session: ConsumerSession, path: string) => {
      const entry = tree.at(path);
      if (entry === undefined) return;
      subscribe(session, path);
      if (entry.kind === 'leaf') return session.send(elementsMessage([qualified(path, contentsOf(entry))]));
      // Empty children: emberplus-connection's consumer waits for children in a directory's answer.
      if (entry.kind === 'matrix') return session.send(connectionsMessage(entry, entry.matrix.allTargets(), new Map()));
      const online = [...entry.children.values()].filter((child) => child.kind !== 'leaf' || child.online);
      if (path === '') return session.send(elementsMessage(online.map((child) => numbered(child.number, contentsOf(child)))));
      const children = new Map(online.map((child) => [child.number, contentsOf(child)]));
      session.send(elementsMessage([qualified(path, contentsOf(entry), children)]));
    };

    const write = (session: ConsumerSession, path: string, value: EmberValue | undefined) => {
      const entry = tree.at(path);
      if (entry?.kind !== 'leaf' || !entry.online || entry.parameter.type === 'T') return;
      // Octets (a Uint8Array once decoded) have no parameter type to go to.
      if (value === undefined || value === null || value instanceof Uint8Array) return;
      const { parameter } = entry;
      // The writer always hears the hub's value after its write: the new one, or the one that stayed.
      const answer = () => session.send(valueMessage(entry, parameter.value));
      if (!mayWrite(parameter)) {
        refuse(session, parameter);
        return answer();
      }
      if (parameter.answersLater) {
        const taken = parameter.set(value, session.origin, answer);
        if (!taken.ok) answer();
        return;
      }
      const result = parameter.set(value, session.origin);
      const heardIt = session.subscriptions.has(parentPath(path)) || session.subscriptions.has(path);
      if (!result.ok || !result.value || !heardIt) answer();
    };

    /** A consumer's connect: a hub write of each target it names; the writer always hears what the targets hold after. */
    const connect = (session: ConsumerSession, path: string, requests: readonly EmberConnection[]) => {
      const entry = tree.at(path);
      if (entry?.kind !== 'matrix') return;
      const heardIt = session.subscriptions.has(parentPath(path)) || session.subscriptions.has(path);
      for (const request of requests) {
        const value = entry.matrix.asked(request);
        const parameter = entry.matrix.targets[request.target];
        if (value === undefined || parameter === undefined) continue;
        const answer = () => session.send(connectionsMessage(entry, [request.target]));
        if (!mayWrite(parameter)) {
          refuse(session, parameter);
          answer();
          continue;
        }
        if (parameter.answersLater) {
          if (!parameter.set(value, session.origin, answer).ok) answer();
          continue;
        }
        const result = parameter.set(value, session.origin);
        if (!result.ok || !result.value || !heardIt) answer();
      }
    };

    const invoke = (session: ConsumerSession, path: string, id: number) => {
      const entry = tree.at(path);
      const allowed = entry?.kind === 'leaf' && mayWrite(entry.parameter);
      if (entry?.kind === 'leaf' && !allowed) refuse(session, entry.parameter);
      const fired = allowed && entry.online && entry.parameter.type === 'T' && entry.parameter.set(null, session.origin).ok;
      session.send(invocationResultMessage(id, fired === true));
    };

    /** Closes a consumer past a bound, with a log line; what it followed is let go. */
    const cutOffFor = (session: ConsumerSession, why: string) => {
      if (session.isClosed) return;
      session.close();
      forget(session);
      cutOff++;
      context.log.warn(`${session.origin} cut off: ${why}`);
    };

    const receive = (session: ConsumerSession, met: readonly Met[]) => {
      if (session.isClosed) return;
      if (!session.asks(met.length, context.scheduler.now(), REQUESTS_PER_SECOND))
        return cutOffFor(session, `more than ${REQUESTS_PER_SECOND} requests in a second`);
      for (const item of met) {
        if (session.isClosed) return;
        if (item.kind === 'command') {
          const { command, path } = item;
          if (command.number === CommandNumber.GetDirectory) directory(session, path);
          else if (command.number === CommandNumber.Subscribe) subscribe(session, path);
          else if (command.number === CommandNumber.Unsubscribe) unsubscribe(session, path);
          else if (command.number === CommandNumber.Invoke)
            invoke(session, path, (command as { invocation?: { id?: number } }).invocation?.id ?? 0);
        } else if (item.kind === 'element' && item.contents.type === ElementType.Parameter) {
          // Some consumers send the element they read, children (none) and all: it is a setValue all the same.
          write(session, item.path, item.contents.value);
        } else if (item.kind === 'element' && item.contents.type === ElementType.Matrix && item.contents.connections) {
          connect(session, item.path, Object.values(item.contents.connections));
        }
      }
    };

    const listener = new TcpListener(
      {
        port,
        bindIp,
        maxClients: maxConsumers,
        allow: peers,
        refusedPeer: (address) => refusals.warn(`a consumer from ${address} refused: \`allow\` does not let it in`),
      },
      (socket) => {
        const session = new ConsumerSession(socket, maxQueuedBytes, (gone) => {
          cutOff++;
          forget(gone);
          context.log.warn(`${gone.origin} stopped reading: cut off with more than ${maxQueuedBytes} bytes waiting for it`);
        });
        sessions.add(session);
        const receiver = new EmberReceiver(maxMessageBytes, socket, {
          // Every frame counts, keep-alives and empty ones too: a flood of either is a flood.
          frame() {
            if (!session.asks(1, context.scheduler.now(), REQUESTS_PER_SECOND))
              cutOffFor(session, `more than ${REQUESTS_PER_SECOND} requests in a second`);
          },
          met: (met) => receive(session, met),
          // A consumer asks every few seconds: a flood of asks gets ten answers a second, not one each.
          keepalive() {
            if (session.mayAnswerKeepalive(context.scheduler.now())) session.send(KEEPALIVE_RESPONSE);
          },
          dropped(_kind, reason) {
            dropped++;
            ignored.warn(`${session.origin}: ${reason}, dropped`);
            // No consumer sends such messages by mistake for long: one that goes on is cut off.
            if (++session.dropped > DROPPED_AT_MOST) cutOffFor(session, `more than ${DROPPED_AT_MOST} of its messages dropped`);
          },
        });
        socket.on('data', (chunk: Buffer) => receiver.push(chunk));
        socket.once('close', () => {
          receiver.close();
          forget(session);
        });
      },
    );

    return {
      async start() {
        const { graph } = context;
        graphWatch = graph.added$.subscribe(follow);
        graphWatch.add(graph.removed$.subscribe((parameter) => unfollow(parameter.address)));
        graphWatch.add(
          graph.tables$.subscribe((table) => {
            for (const parameter of table.parameters()) {
              if (table.added) follow(parameter);
              else unfollow(parameter.address);
            }
          }),
        );
        for (const parameter of graph.all()) follow(parameter);
        for (const matrix of matrices) {
          const address = `${context.id}/${matrix.declared.id}`;
          for (const entry of tree.addMatrix(address, matrix))
            tell(entry.path, elementsMessage([qualified(entry.path, contentsOf(entry))]));
          const entry = tree.atMatrix(address) as MatrixEntry;
          matrix.targets.forEach((parameter, target) =>
            follows.set(
              parameter.address,
              parameter.changes$.subscribe(() => tell(entry.path, connectionsMessage(entry, [target]))),
            ),
          );
        }
        const listening = await listener.listen();
        context.log.info(
          `serving Ember+ on ${bindIp || '*'}:${listening}: shows ${expose.join(' ') || 'nothing'}; consumers may change ${writePatterns.join(' ') || 'nothing'}; lets in ${peers.describe()}`,
        );
      },
      details: () => ({
        port: listener.port,
        consumers: sessions.size,
        refusedConsumers: listener.refused,
        refusedPeers: listener.refusedPeers,
        // Paths consumers follow now: what a flood of requests for made-up paths would grow.
        followedPaths: followers.size,
        parameters: follows.size,
        cutOff,
        dropped,
      }),
      async stop() {
        graphWatch?.unsubscribe();
        for (const subscription of follows.values()) subscription.unsubscribe();
        follows.clear();
        for (const session of sessions) session.close();
        sessions.clear();
        await listener.close();
      },
    };
  },
});

/** The matrix at `entry` with what the targets given hold now. */
function connectionsMessage(entry: MatrixEntry, targets: readonly number[], children?: ReadonlyMap<number, EmberElement>): Buffer {
  return elementsMessage([qualified(entry.path, entry.matrix.contents(entry.identifier, targets), children)]);
}

function valueField(value: Value | undefined): { value?: EmberValue } {
  return value === undefined ? {} : { value: value as EmberValue };
}
