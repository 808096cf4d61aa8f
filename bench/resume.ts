/**
 * A client that comes back (R-W3) against one that starts again: a `?batch=1&resume=1`
 * client on a hub of 100,000 parameters is cut off for a second while 10,000 changes a
 * second go on (10,000 changes, about as many as `resumeChanges` keeps), then comes back
 * with its token: the time and bytes until it has all it missed, beside a fresh client's
 * snapshot of the same hub in the same run. Then what the store costs at 10,000 changes a
 * second: the messages and bytes `/metrics` shows, and the heap beside the same load with
 * no resumable client.
 *
 *   node --expose-gc --import tsx bench/resume.ts [parameters]
 *
 * The hub and the client (the `ws` package) share this process, so both times include the
 * client's parsing alike. Printed, not asserted.
 */
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { validateFlow } from '../lib/config/flow-file.ts';
import type { OwnedParameter } from '../lib/core/parameter.ts';
import { Hub } from '../lib/hub/hub.ts';
import { nowMs, sleep } from './lib/clock.ts';

interface Item {
  readonly p?: string;
  readonly seq?: number;
  readonly resume?: string;
}

/** A client on `/ws`: its items, bytes received, and a wait for a condition on them. */
class Client {
  readonly items: Item[] = [];
  bytes = 0;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.bytes += data.length;
      const parsed = JSON.parse(data.toString()) as Item | Item[];
      if (Array.isArray(parsed)) for (const item of parsed) this.items.push(item);
      else this.items.push(parsed);
    });
  }
  static async open(url: string): Promise<Client> {
    const client = new Client(new WebSocket(url));
    await new Promise((resolve, reject) => client.socket.once('open', resolve).once('error', reject));
    return client;
  }
  async until(check: () => boolean): Promise<void> {
    const deadline = nowMs() + 60_000;
    while (!check()) {
      if (nowMs() > deadline) throw new Error('timed out');
      await sleep(1);
    }
  }
  /** The `seq` it would come back with: the last that came, its greeting aside. */
  lastSeq(): number | undefined {
    return this.items.findLast((item) => item.seq !== undefined && item.resume === undefined)?.seq;
  }
}

/** Changes `rate` values a second, 1% of them every 10 ms, round the parameters, until stopped. */
function changing(parameters: readonly OwnedParameter[], rate: number): () => void {
  let next = 0;
  let round = 0;
  const timer = setInterval(() => {
    round++;
    for (let i = 0; i < rate / 100; i++) parameters[next++ % parameters.length]?.set(`v${round}-${i}`);
  }, 10);
  return () => clearInterval(timer);
}

export async function measureResume(count: number) {
  const flow = validateFlow(
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        bench: { type: 'dummy', parameters: Array.from({ length: count }, (_, i) => `p${i},S,${i}`) },
      },
    },
    `${process.cwd()}/bench.json5`,
  );
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  await hub.start();
  try {
    const port = Number((hub.connections.find((c) => c.id === 'api')?.info.details as { port?: number } | undefined)?.port);
    const parameters = Array.from({ length: count }, (_, i) => hub.graph.get(`bench/p${i}`) as OwnedParameter);
    const url = `ws://127.0.0.1:${port}/ws?batch=1`;

    // A fresh client: its whole snapshot, until the mark that ends it.
    let started = nowMs();
    const tablet = await Client.open(`${url}&resume=1`);
    await tablet.until(() => tablet.items.length === count + 2);
    const snapshot = { ms: nowMs() - started, bytes: tablet.bytes };
    const token = tablet.items[0]?.resume as string;

    // Cut off for a second of 10,000 changes a second.
    const stop = changing(parameters, 10_000);
    await sleep(200);
    const received = tablet.lastSeq() as number;
    tablet.socket.terminate();
    await sleep(1000);
    stop();
    await sleep(50);
    const witness = await Client.open(`${url}&resume=1`);
    await witness.until(() => witness.items.length === count + 2);
    const missedUpTo = witness.items[0]?.seq as number;
    witness.socket.terminate();

    started = nowMs();
    const back = await Client.open(`${url}&resume=${token}&seq=${received}`);
    await back.until(() => back.lastSeq() === missedUpTo || back.items[0]?.resume === undefined);
    const catchUp = { ms: nowMs() - started, bytes: back.bytes, messages: back.items.length - 1, resumed: back.items[0]?.resume === token };
    back.socket.terminate();

    // The store at 10,000 changes a second: with a resumable client connected, and without.
    const heapDuring = async (resumable: boolean) => {
      const client = await Client.open(resumable ? `${url}&resume=1` : url);
      await client.until(() => client.items.length >= count);
      const stopLoad = changing(parameters, 10_000);
      await sleep(3000);
      globalThis.gc?.();
      const heap = process.memoryUsage().heapUsed;
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const kept = (what: string) => Number(metrics.match(new RegExp(`resume_buffered\\{kept="${what}"\\} (\\d+)`))?.[1] ?? 0);
      stopLoad();
      client.socket.terminate();
      await sleep(200);
      return { heap, messages: kept('messages'), bytes: kept('bytes') };
    };
    const without = await heapDuring(false);
    const withStore = await heapDuring(true);
    return { count, snapshot, catchUp, missed: missedUpTo - received, without, withStore };
  } finally {
    await hub.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 100_000);
  const { snapshot, catchUp, missed, without, withStore } = await measureResume(count);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log(`${count.toLocaleString('en')} parameters, a ?batch=1 client cut off for 1 s at 10,000 changes/s, Node ${process.version}`);
  console.log('| | time | bytes | messages |');
  console.log('|---|---|---|---|');
  console.log(`| a fresh client's snapshot | ${snapshot.ms.toFixed(0)} ms | ${mb(snapshot.bytes)} | ${count} values |`);
  console.log(
    `| the client coming back with its token${catchUp.resumed ? '' : ' (NOT resumed: a snapshot)'} | ${catchUp.ms.toFixed(0)} ms | ${mb(catchUp.bytes)} | ${catchUp.messages} (changes made meanwhile: ${missed}) |`,
  );
  console.log(`| ratio | ${(catchUp.ms / snapshot.ms).toFixed(2)}× | ${(catchUp.bytes / snapshot.bytes).toFixed(2)}× | |`);
  console.log('');
  console.log('| 10,000 changes/s for 3 s | heap after GC | kept messages | kept bytes |');
  console.log('|---|---|---|---|');
  console.log(`| one ?batch=1 client | ${mb(without.heap)} | | |`);
  console.log(`| one ?batch=1&resume=1 client | ${mb(withStore.heap)} | ${withStore.messages} | ${mb(withStore.bytes)} |`);
  console.log(`| the store's cost | ${mb(withStore.heap - without.heap)} | | |`);
  process.exit(0);
}
