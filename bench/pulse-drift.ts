/**
 * Pulse drift on the real clock: a timer connection's pulse against a plain setInterval
 * with the same interval, side by side in one process. Reports how late the last fire of
 * each came against its slot on the grid start + n × interval.
 *
 *   node --import tsx bench/pulse-drift.ts [fires] [interval]
 */
import { pathToFileURL } from 'node:url';
import { validateFlow } from '../lib/config/flow-file.ts';
import { Hub } from '../lib/hub/hub.ts';

export async function measurePulseDrift(fires: number, interval: number): Promise<{ fires: number; pulse: number; setInterval: number }> {
  const flow = validateFlow({ connections: { clock: { type: 'timer', pulses: [{ interval }] } } }, `${process.cwd()}/bench.json5`);
  if (!flow.ok) throw flow.error;
  const hub = new Hub({ flow: flow.flow });
  const started = Date.now();
  await hub.start();
  let pulseLast = 0;
  let pulseCount = 0;
  let timerLast = 0;
  let timerCount = 0;
  const handle = setInterval(() => {
    timerCount++;
    if (timerCount === fires) {
      timerLast = Date.now() - (started + fires * interval);
      clearInterval(handle);
    }
  }, interval);
  await new Promise<void>((resolve) => {
    const subscription = hub.graph.get('clock/pulse/1')!.changes$.subscribe(() => {
      pulseCount++;
      if (pulseCount === fires) {
        pulseLast = Date.now() - (started + fires * interval);
        subscription.unsubscribe();
        resolve();
      }
    });
  });
  while (timerCount < fires) await new Promise((resolve) => setTimeout(resolve, interval));
  await hub.stop();
  return { fires, pulse: pulseLast, setInterval: timerLast };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await measurePulseDrift(Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 10));
  console.log(`after ${result.fires} fires: pulse ${result.pulse} ms late, setInterval ${result.setInterval} ms late`);
}
