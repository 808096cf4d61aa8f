/**
 * A running `ember-provider` connection: the hub's parameters that match `expose` followed
 * into the tree it serves (exposed-tree.ts), its matrices beside them, and each consumer
 * that connects served as a session of its own (consumer-session.ts).
 */
import type { Socket } from 'node:net';
import type { Subscription } from 'rxjs';
import { type ConnectionContext, type Parameter, SparseLog, TcpListener, type TypedInstance } from '../../sdk/index.ts';
import { elementsMessage, qualified } from '../../protocols/ember-plus.ts';
import { EmberReceiver, type EmberReceiverEvents } from '../../protocols/ember-decoding.ts';
import { KEEPALIVE_RESPONSE } from '../../protocols/s101.ts';
import { REQUESTS_PER_SECOND, requestHandler } from './consumer-requests.ts';
import { ConsumerSession } from './consumer-session.ts';
import { Consumers } from './consumers.ts';
import { connectionsMessage, elementContents, valueMessage } from './element-messages.ts';
import { type Entry, ExposedTree, type Leaf, type MatrixEntry } from './exposed-tree.ts';
import { ServedMatrix } from './served-matrix.ts';
import type { EmberProviderSettings } from './settings.ts';

/** Messages of one consumer dropped (malformed, past a bound) before it is cut off. */
const DROPPED_AT_MOST = 100;

export class EmberProviderConnection implements TypedInstance<EmberProviderSettings> {
  private readonly tree: ExposedTree;
  private readonly matrices: readonly ServedMatrix[];
  /** A matrix's parameters are served as the matrix, not as parameters of their own. */
  private readonly matrixParameters: ReadonlySet<string>;
  private readonly consumers: Consumers;
  /** What follows each parameter served, by address. */
  private readonly follows = new Map<string, Subscription>();
  private readonly ignored: SparseLog;
  private readonly refusals: SparseLog;
  private readonly receive: ReturnType<typeof requestHandler>;
  private readonly listener: TcpListener;
  private graphWatch: Subscription | undefined;
  private dropped = 0;

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: EmberProviderSettings,
  ) {
    const { port, bindIp, peers, maxConsumers } = settings;
    this.tree = new ExposedTree(context.records);
    this.matrices = settings.matrices.map((declaration) => new ServedMatrix(context, declaration));
    this.matrixParameters = new Set(this.matrices.flatMap((matrix) => matrix.targets.map((parameter) => parameter.address)));
    this.consumers = new Consumers(context.log);
    this.ignored = new SparseLog(context.log, context.scheduler, 'ignored');
    this.refusals = new SparseLog(context.log, context.scheduler, 'refused');
    this.receive = requestHandler({
      tree: this.tree,
      consumers: this.consumers,
      now: () => context.scheduler.now(),
      mayWrite: (parameter) => this.mayWrite(parameter),
      refuse: (session, parameter) => this.refuse(session, parameter),
      contentsOf: (entry) => this.contentsOf(entry),
    });
    this.listener = new TcpListener(
      {
        port,
        bindIp,
        maxClients: maxConsumers,
        allow: peers,
        refusedPeer: (address) => this.refusals.warn(`a consumer from ${address} refused: \`allow\` does not let it in`),
      },
      (socket) => this.serve(socket),
    );
  }

  async start(): Promise<void> {
    this.followGraph();
    for (const matrix of this.matrices) this.serveMatrix(matrix);
    const listening = await this.listener.listen();
    const { bindIp, expose, write, peers } = this.settings;
    this.context.log.info(
      `serving Ember+ on ${bindIp || '*'}:${listening}: shows ${expose.join(' ') || 'nothing'}; consumers may change ${write.join(' ') || 'nothing'}; lets in ${peers.describe()}`,
    );
  }

  details(): Readonly<Record<string, unknown>> {
    return {
      port: this.listener.port,
      consumers: this.consumers.sessions.size,
      refusedConsumers: this.listener.refused,
      refusedPeers: this.listener.refusedPeers,
      // Paths consumers follow now: what a flood of requests for made-up paths would grow.
      followedPaths: this.consumers.followedPaths,
      parameters: this.follows.size,
      cutOff: this.consumers.cutOff,
      dropped: this.dropped,
    };
  }

  async stop(): Promise<void> {
    this.graphWatch?.unsubscribe();
    for (const subscription of this.follows.values()) subscription.unsubscribe();
    this.follows.clear();
    for (const session of this.consumers.sessions) session.close();
    this.consumers.sessions.clear();
    await this.listener.close();
  }

  /** What a consumer may change: the parameter takes writes and `write` matches it. */
  private mayWrite(parameter: Parameter): boolean {
    return parameter.access !== 'read-only' && this.settings.writable.matches(parameter.address);
  }

  private refuse(session: ConsumerSession, parameter: Parameter): void {
    this.refusals.warn(`${session.origin} may not change ${parameter.address}: \`write\` does not let it (or it is read-only)`);
  }

  private contentsOf(entry: Entry) {
    return elementContents(entry, (parameter) => this.mayWrite(parameter));
  }

  /** Tells the consumers that follow it what an element is now. */
  private announce(entry: Entry): void {
    this.consumers.tell(entry.path, elementsMessage([qualified(entry.path, this.contentsOf(entry))]));
  }

  /** Follows the parameters of the graph that match, as they come and go. */
  private followGraph(): void {
    this.graphWatch = this.context.graph.everyParameter(
      (parameter) => this.follow(parameter),
      (parameter) => this.unfollow(parameter.address),
    );
  }

  private follow(parameter: Parameter): void {
    const { address } = parameter;
    if (this.follows.has(address) || !this.settings.patterns.matches(address) || this.matrixParameters.has(address)) return;
    for (const entry of this.tree.add(parameter)) this.announce(entry);
    const leaf = this.tree.leafOf(address) as Leaf;
    if (parameter.type === 'T') return void this.follows.set(address, { unsubscribe() {} } as Subscription);
    this.follows.set(
      address,
      parameter.changes$.subscribe((value) => this.consumers.tell(leaf.path, valueMessage(leaf, value))),
    );
  }

  private unfollow(address: string): void {
    this.follows.get(address)?.unsubscribe();
    this.follows.delete(address);
    const leaf = this.tree.remove(address);
    if (leaf) this.announce(leaf);
  }

  /** Serves a matrix at `<connection>/<id>`, its connections told as its targets change. */
  private serveMatrix(matrix: ServedMatrix): void {
    const address = `${this.context.id}/${matrix.declared.id}`;
    for (const entry of this.tree.addMatrix(address, matrix)) this.announce(entry);
    const entry = this.tree.atMatrix(address) as MatrixEntry;
    matrix.targets.forEach((parameter, target) =>
      this.follows.set(
        parameter.address,
        parameter.changes$.subscribe(() => this.consumers.tell(entry.path, connectionsMessage(entry, [target]))),
      ),
    );
  }

  /** A consumer connected: a session of its own, its frames read until it goes. */
  private serve(socket: Socket): void {
    const { maxQueuedBytes, maxMessageBytes } = this.settings;
    const session = new ConsumerSession(socket, maxQueuedBytes, (gone) =>
      this.consumers.stoppedReading(gone, `cut off with more than ${maxQueuedBytes} bytes waiting for it`),
    );
    this.consumers.sessions.add(session);
    const receiver = new EmberReceiver(maxMessageBytes, socket, this.framesOf(session));
    socket.on('data', (chunk: Buffer) => receiver.push(chunk));
    socket.once('close', () => {
      receiver.close();
      this.consumers.forget(session);
    });
  }

  /** What a consumer's frames do: requests answered, keep-alives too, floods and junk cut off. */
  private framesOf(session: ConsumerSession): EmberReceiverEvents {
    const { consumers, context } = this;
    return {
      // Every frame counts, keep-alives and empty ones too: a flood of either is a flood.
      frame() {
        if (!session.asks(1, context.scheduler.now(), REQUESTS_PER_SECOND))
          consumers.cutOffFor(session, `more than ${REQUESTS_PER_SECOND} requests in a second`);
      },
      met: (met) => this.receive(session, met),
      // A consumer asks every few seconds: a flood of asks gets ten answers a second, not one each.
      keepalive() {
        if (session.mayAnswerKeepalive(context.scheduler.now())) session.send(KEEPALIVE_RESPONSE);
      },
      dropped: (_kind, reason) => {
        this.dropped++;
        this.ignored.warn(`${session.origin}: ${reason}, dropped`);
        // No consumer sends such messages by mistake for long: one that goes on is cut off.
        if (++session.dropped > DROPPED_AT_MOST) consumers.cutOffFor(session, `more than ${DROPPED_AT_MOST} of its messages dropped`);
      },
    };
  }
}
