import { createServer, type Server, type Socket } from 'node:net';
import type { ExecutionContext } from 'ava';

/** A block as the router was sent it: the title without the colon, and its lines. */
export interface HeardBlock {
  readonly title: string;
  readonly lines: readonly string[];
}

/**
 * A Videohub as the spec scripts it, on plain `net`: what videohub-server does not do. It
 * keeps routes, labels and locks, sends its state on connect (in pieces of `pieceBytes`
 * when set, so blocks arrive cut anywhere), answers each block `ACK` (or `NAK`, or nothing,
 * after `answerDelayMs`), echoes what changed to every client as a real router does, and
 * records every block it was sent. Monitoring outputs and serial ports when asked for, as
 * a Universal Videohub has them.
 */
export class ScriptedVideohub {
  readonly heard: HeardBlock[] = [];
  /** Told of each block as it arrives (a bench times a write to the router). */
  onHeard: ((block: HeardBlock) => void) | undefined;
  readonly routes: number[];
  readonly inputLabels: string[];
  readonly outputLabels: string[];
  readonly locks: string[];
  readonly monitorRoutes: number[];
  readonly monitorLabels: string[];
  readonly monitorLocks: string[];
  readonly serialRoutes: number[];
  readonly serialLabels: string[];
  readonly serialLocks: string[];
  answer: 'ACK' | 'NAK' | 'none' = 'ACK';
  answerDelayMs = 0;
  echo = true;
  pieceBytes = 0;
  /** What it sends instead of its state on connect, when set. */
  greeting: string | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly inputs: number,
    readonly outputs: number,
    readonly monitors = 0,
    readonly serials = 0,
  ) {
    this.routes = Array.from({ length: outputs }, (_, n) => n % inputs);
    this.inputLabels = Array.from({ length: inputs }, (_, n) => `Camera ${n + 1}`);
    this.outputLabels = Array.from({ length: outputs }, (_, n) => `Monitor ${n + 1}`);
    this.locks = Array.from({ length: outputs }, () => 'U');
    this.monitorRoutes = Array.from({ length: monitors }, () => 0);
    this.monitorLabels = Array.from({ length: monitors }, (_, n) => `Loop ${n + 1}`);
    this.monitorLocks = Array.from({ length: monitors }, () => 'U');
    this.serialRoutes = Array.from({ length: serials }, (_, n) => (n + 1) % serials);
    this.serialLabels = Array.from({ length: serials }, (_, n) => `Deck ${n + 1}`);
    this.serialLocks = Array.from({ length: serials }, () => 'U');
  }

  /** Listens on 127.0.0.1; resolves with the port. */
  async start(port = 0): Promise<number> {
    const server = createServer((socket) => this.connected(socket));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  get clients(): number {
    return this.sockets.size;
  }

  /** The router's whole state, as it sends it on connect. */
  state(): string {
    const list = (items: readonly (string | number)[]) => items.map((item, n) => `${n} ${item}\n`).join('');
    return (
      'PROTOCOL PREAMBLE:\nVersion: 2.8\n\n' +
      `VIDEOHUB DEVICE:\nDevice present: true\nModel name: Blackmagic Universal Videohub 288\nFriendly name: Spec Router\nVideo inputs: ${this.inputs}\nVideo processing units: 0\nVideo outputs: ${this.outputs}\nVideo monitoring outputs: ${this.monitors}\nSerial ports: ${this.serials}\n\n` +
      `INPUT LABELS:\n${list(this.inputLabels)}\n` +
      `OUTPUT LABELS:\n${list(this.outputLabels)}\n` +
      `VIDEO OUTPUT LOCKS:\n${list(this.locks)}\n` +
      `VIDEO OUTPUT ROUTING:\n${list(this.routes)}\n` +
      (this.monitors > 0
        ? `MONITORING OUTPUT LABELS:\n${list(this.monitorLabels)}\n` +
          `MONITORING OUTPUT LOCKS:\n${list(this.monitorLocks)}\n` +
          `VIDEO MONITORING OUTPUT ROUTING:\n${list(this.monitorRoutes)}\n`
        : '') +
      (this.serials > 0
        ? `SERIAL PORT LABELS:\n${list(this.serialLabels)}\n` +
          `SERIAL PORT LOCKS:\n${list(this.serialLocks)}\n` +
          `SERIAL PORT ROUTING:\n${list(this.serialRoutes)}\n`
        : '') +
      'END PRELUDE:\n\n'
    );
  }

  /** Sends `text` to every client, as the router says what changed. */
  say(text: string): void {
    for (const socket of this.sockets) this.send(socket, text);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private connected(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    let held = '';
    socket.on('data', (chunk) => {
      held += chunk.toString('utf8');
      for (let end = held.indexOf('\n\n'); end >= 0; end = held.indexOf('\n\n')) {
        const [title = '', ...lines] = held.slice(0, end).split('\n');
        held = held.slice(end + 2);
        this.command(socket, { title: title.replace(/:$/, ''), lines });
      }
    });
    this.send(socket, this.greeting ?? this.state());
  }

  private command(socket: Socket, block: HeardBlock): void {
    this.heard.push(block);
    this.onHeard?.(block);
    const changed: string[] = [];
    const table = {
      'VIDEO OUTPUT ROUTING': this.routes,
      'INPUT LABELS': this.inputLabels,
      'OUTPUT LABELS': this.outputLabels,
      'VIDEO OUTPUT LOCKS': this.locks,
      'VIDEO MONITORING OUTPUT ROUTING': this.monitorRoutes,
      'MONITORING OUTPUT LABELS': this.monitorLabels,
      'MONITORING OUTPUT LOCKS': this.monitorLocks,
      'SERIAL PORT ROUTING': this.serialRoutes,
      'SERIAL PORT LABELS': this.serialLabels,
      'SERIAL PORT LOCKS': this.serialLocks,
    }[block.title] as (string | number)[] | undefined;
    if (table && this.answer === 'ACK')
      for (const line of block.lines) {
        const space = line.indexOf(' ');
        const n = Number(line.slice(0, space));
        let value: string | number = line.slice(space + 1);
        if (block.title.endsWith('ROUTING')) value = Number(value);
        // A lock taken is this client's (O) to it, another's (L) to the others; shown here as O.
        if (block.title.endsWith('LOCKS') && value === 'F') value = 'U';
        table[n] = value;
        changed.push(`${n} ${value}`);
      }
    const reply = () => {
      if (this.answer !== 'none') this.send(socket, `${this.answer}\n\n`);
      if (this.echo && changed.length > 0) this.say(`${block.title}:\n${changed.join('\n')}\n\n`);
    };
    if (this.answerDelayMs > 0) setTimeout(reply, this.answerDelayMs);
    else reply();
  }

  private send(socket: Socket, text: string): void {
    if (this.pieceBytes <= 0) return void socket.write(text);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += this.pieceBytes) socket.write(bytes.subarray(at, at + this.pieceBytes));
  }
}

/**
 * Answers videohub-server's call back on 127.0.0.1:9991 as a control panel would, so that it
 * keeps the client. The port is fixed (videohub-server calls the client's address on 9991),
 * so spec files that run at once take it in turn: this waits until no other holds it.
 */
export async function controlPanel(t: ExecutionContext, waitMs = 120_000): Promise<void> {
  const sockets = new Set<Socket>();
  const deadline = Date.now() + waitMs;
  for (;;) {
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.write(
        'SMART DEVICE:\nModel: Spec Panel\nLabel: spec\nUnique ID: spec-panel\nInput count: 0\nInputs across: 0\nInputs down: 0\n\n',
      );
    });
    const listening = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
      server.listen(9991, '127.0.0.1', () => resolve(true));
    });
    if (listening) {
      t.teardown(() => {
        for (const socket of sockets) socket.destroy();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      });
      return;
    }
    if (Date.now() > deadline) throw new Error('port 9991 stayed taken: another spec holds the control panel');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
