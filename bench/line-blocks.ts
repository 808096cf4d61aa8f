/**
 * Line protocols: what reading a router's block of 40 routes costs (`VIDEO OUTPUT
 * ROUTING:` and a line an output, as Videohub sends), three ways, in one process:
 *
 * - `each`: the receive entry the hub takes (`match` on the header, `each` on every line),
 *   through the same compiled patterns as a connection's;
 * - baseline: the same 40 routes sent as 40 frames of one line, each matched by the same
 *   one-line pattern (what a device that sends a line a route costs);
 * - one pattern of 40 lines, two groups a line: what a raised 512-character bound would let
 *   a flow write (1,084 characters; compiled with re2js directly, as the bound refuses it).
 *
 *   node --import tsx bench/line-blocks.ts [blocks]
 *
 * Each way is the best of five runs taken in turns. Printed, not asserted.
 */
import { pathToFileURL } from 'node:url';
import { RE2JS } from 're2js';
import { parseLineProtocol } from '../lib/sdk/device/line-protocol.ts';

const SIZE = 40;
const LINE = '(?m)^(?P<out>\\d+) (?P<in>\\d+)$';

export interface BlockCost {
  /** Microseconds to read one block of 40 routes. */
  readonly eachUs: number;
  readonly linesUs: number;
  readonly wholeUs: number;
}

export function measureBlocks(blocks: number): BlockCost {
  const routes = Array.from({ length: SIZE }, (_, output) => `${output} ${(output * 7) % SIZE}`);
  const block = `VIDEO OUTPUT ROUTING:\n${routes.join('\n')}`;
  const protocol = parseLineProtocol({
    parameters: 'out/{0..39},I',
    encoding: 'utf8',
    maxFrameBytes: 65_536,
    maxFramesPerSecond: 10_000,
    receive: [
      { match: '^VIDEO OUTPUT ROUTING:\n', each: LINE, set: { 'out/$out': '$in' } },
      { match: LINE, set: { 'out/$out': '$in' } },
    ],
    send: [],
    poll: [],
    timeout: 2000,
  });
  if (!protocol.ok) throw new Error(JSON.stringify(protocol.issues));
  const [blockEntry, lineEntry] = protocol.value.receivers;
  if (!blockEntry?.each || !lineEntry) throw new Error('no receivers');
  const { pattern: header, each } = blockEntry;
  const whole = RE2JS.compile(`^VIDEO OUTPUT ROUTING:\\n${routes.map((_, n) => `(?P<o${n}>\\d+) (?P<i${n}>\\d+)`).join('\\n')}`);
  const wholeGroups = Object.values(whole.namedGroups() as Record<string, number>);

  const seen = new Map<string, string>();
  const time = (read: () => void) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < blocks; i++) read();
    return Number(process.hrtime.bigint() - started) / 1000 / blocks;
  };
  const ways = {
    each: () => {
      const groups = header.groups(block);
      if (!groups) throw new Error('no header');
      for (const [output = '', input = ''] of each.everyGroups(block)) seen.set(output, input);
    },
    lines: () => {
      for (const line of routes) {
        const [output = '', input = ''] = lineEntry.pattern.groups(line) ?? [];
        seen.set(output, input);
      }
    },
    whole: () => {
      const matcher = whole.matcher(block);
      if (!matcher.find()) throw new Error('no match');
      for (let n = 0; n < wholeGroups.length; n += 2)
        seen.set(matcher.group(wholeGroups[n] as number) ?? '', matcher.group(wholeGroups[n + 1] as number) ?? '');
    },
  };
  for (const read of Object.values(ways)) for (let i = 0; i < 200; i++) read();
  const best = { each: Infinity, lines: Infinity, whole: Infinity };
  for (let round = 0; round < 5; round++)
    for (const name of ['each', 'lines', 'whole'] as const) best[name] = Math.min(best[name], time(ways[name]));
  if (seen.size !== SIZE) throw new Error(`read ${seen.size} routes`);
  return { eachUs: best.each, linesUs: best.lines, wholeUs: best.whole };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const blocks = Number(process.argv[2] ?? 5000);
  const cost = measureBlocks(blocks);
  const us = (n: number) => `${n.toFixed(1)} µs`;
  console.log(`a block of ${SIZE} routes, best of 5 × ${blocks} blocks`);
  console.log(`  each (match + each):        ${us(cost.eachUs)}  ${(cost.eachUs / cost.linesUs).toFixed(2)}× the baseline`);
  console.log(`  baseline (40 line frames):  ${us(cost.linesUs)}`);
  console.log(`  one pattern of 40 lines:    ${us(cost.wholeUs)}  ${(cost.wholeUs / cost.linesUs).toFixed(2)}× the baseline`);
}
