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
import type { Subscription } from 'rxjs';
import { defineConnectionType, openListenerWarnings, type Parameter, TcpListener, SparseLog } from '../../sdk/index.ts';
import { elementsMessage, qualified } from '../../protocols/ember-plus.ts';
import { KEEPALIVE_RESPONSE } from '../../protocols/s101.ts';
import { EmberReceiver } from '../../protocols/ember-decoding.ts';
import { REQUESTS_PER_SECOND, requestHandler } from './consumer-requests.ts';
import { ConsumerSession } from './consumer-session.ts';
import { Consumers } from './consumers.ts';
import { connectionsMessage, elementContents, valueMessage } from './element-messages.ts';
import { type Entry, ExposedTree, type Leaf, type MatrixEntry } from './exposed-tree.ts';
import { ServedMatrix } from './served-matrix.ts';
import { emberProviderSettings, parseEmberProviderSettings } from './settings.ts';

/** Messages of one consumer dropped (malformed, past a bound) before it is cut off. */
const DROPPED_AT_MOST = 100;

export const emberProviderType = defineConnectionType({
  type: 'ember-provider',
  summary: 'Serves the hub’s parameters to Ember+ consumers as a tree, taking their writes.',
  settings: emberProviderSettings,
  parse: parseEmberProviderSettings,
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
    const consumers = new Consumers(context.log);
    const follows = new Map<string, Subscription>();
    const ignored = new SparseLog(context.log, context.scheduler, 'ignored');
    let graphWatch: Subscription | undefined;
    let dropped = 0;
    const refusals = new SparseLog(context.log, context.scheduler, 'refused');
    /** What a consumer may change: the parameter takes writes and `write` matches it. */
    const mayWrite = (parameter: Parameter) => parameter.access !== 'read-only' && writable.matches(parameter.address);
    const refuse = (session: ConsumerSession, parameter: Parameter) =>
      refusals.warn(`${session.origin} may not change ${parameter.address}: \`write\` does not let it (or it is read-only)`);
    const contentsOf = (entry: Entry) => elementContents(entry, mayWrite);

    const follow = (parameter: Parameter) => {
      if (follows.has(parameter.address) || !patterns.matches(parameter.address) || matrixParameters.has(parameter.address)) return;
      for (const entry of tree.add(parameter)) consumers.tell(entry.path, elementsMessage([qualified(entry.path, contentsOf(entry))]));
      const leaf = tree.leafOf(parameter.address) as Leaf;
      if (parameter.type === 'T') return void follows.set(parameter.address, { unsubscribe() {} } as Subscription);
      follows.set(
        parameter.address,
        parameter.changes$.subscribe((value) => consumers.tell(leaf.path, valueMessage(leaf, value))),
      );
    };
    const unfollow = (address: string) => {
      follows.get(address)?.unsubscribe();
      follows.delete(address);
      const leaf = tree.remove(address);
      if (leaf) consumers.tell(leaf.path, elementsMessage([qualified(leaf.path, contentsOf(leaf))]));
    };

    const receive = requestHandler({ tree, consumers, now: () => context.scheduler.now(), mayWrite, refuse, contentsOf });

    const listener = new TcpListener(
      {
        port,
        bindIp,
        maxClients: maxConsumers,
        allow: peers,
        refusedPeer: (address) => refusals.warn(`a consumer from ${address} refused: \`allow\` does not let it in`),
      },
      (socket) => {
        const session = new ConsumerSession(socket, maxQueuedBytes, (gone) =>
          consumers.stoppedReading(gone, `cut off with more than ${maxQueuedBytes} bytes waiting for it`),
        );
        consumers.sessions.add(session);
        const receiver = new EmberReceiver(maxMessageBytes, socket, {
          // Every frame counts, keep-alives and empty ones too: a flood of either is a flood.
          frame() {
            if (!session.asks(1, context.scheduler.now(), REQUESTS_PER_SECOND))
              consumers.cutOffFor(session, `more than ${REQUESTS_PER_SECOND} requests in a second`);
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
            if (++session.dropped > DROPPED_AT_MOST) consumers.cutOffFor(session, `more than ${DROPPED_AT_MOST} of its messages dropped`);
          },
        });
        socket.on('data', (chunk: Buffer) => receiver.push(chunk));
        socket.once('close', () => {
          receiver.close();
          consumers.forget(session);
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
            consumers.tell(entry.path, elementsMessage([qualified(entry.path, contentsOf(entry))]));
          const entry = tree.atMatrix(address) as MatrixEntry;
          matrix.targets.forEach((parameter, target) =>
            follows.set(
              parameter.address,
              parameter.changes$.subscribe(() => consumers.tell(entry.path, connectionsMessage(entry, [target]))),
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
        consumers: consumers.sessions.size,
        refusedConsumers: listener.refused,
        refusedPeers: listener.refusedPeers,
        // Paths consumers follow now: what a flood of requests for made-up paths would grow.
        followedPaths: consumers.followedPaths,
        parameters: follows.size,
        cutOff: consumers.cutOff,
        dropped,
      }),
      async stop() {
        graphWatch?.unsubscribe();
        for (const subscription of follows.values()) subscription.unsubscribe();
        follows.clear();
        for (const session of consumers.sessions) session.close();
        consumers.sessions.clear();
        await listener.close();
      },
    };
  },
});
