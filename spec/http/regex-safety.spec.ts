import { monitorEventLoopDelay } from 'node:perf_hooks';
import test from 'ava';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { compileRegex, regexLimits } from '../../lib/core/regex.ts';
import { param, startHub } from '../helpers/hub.ts';
import { Client, serve, settle } from '../helpers/http.ts';

// R-H9: user expressions run in time linear in the text. Each of these made a backtracking
// engine take seconds (doubling with each character) on the subject below.
const catastrophic = [
  '(a+)+$',
  '(a*)*$',
  '(a|aa)+$',
  '(a|a?)+$',
  '(\\w+\\s?)+$',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(x+x+)+y',
  '(.*a){12}$',
  '(((((((((a*)*)*)*)*)*)*)*)*)*--',
  '(a|b|ab|ba|aa|bb)*c',
];
// What the linear engine cannot run, or what is too large to run cheaply: refused.
const refused = ['(a+)\\1', '(?=a)a', '(?<=a)b', '(?!x)a', 'a{1001}', '[\\s\\S]{1000}'.repeat(3), 'a'.repeat(regexLimits.maxLength + 1)];
const subject = `${'a'.repeat(25)}-`;

/** The longest the event loop (shared by hub and client here) was held while `work` ran. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await work();
  delay.disable();
  return delay.max / 1e6;
}

test('compileRegex accepts RE2 syntax and refuses what RE2 cannot run or what is too large, with PB_BAD_FILTER', (t) => {
  for (const source of ['^studio/', 'mic/\\d+/open$', '(?i)ON AIR', '(?P<n>a)|(?<m>b)', '[[:alpha:]]+', '\\pL'])
    t.true(compileRegex(source).ok, source);
  for (const source of refused) {
    const compiled = compileRegex(source);
    t.false(compiled.ok, source);
    if (!compiled.ok) t.is(compiled.error.code, 'PB_BAD_FILTER');
  }
  const backreference = compileRegex('(a)\\1');
  t.true(!backreference.ok && /invalid escape sequence: `\\1`/.test(backreference.error.message));
  const lookahead = compileRegex('(?=a)');
  t.true(!lookahead.ok && /unsupported Perl syntax: `\(\?=`/.test(lookahead.error.message));
  const large = compileRegex('[\\s\\S]{1000}'.repeat(3));
  t.true(!large.ok && /too large/.test(large.error.message));
});

test('catastrophic ?filter= expressions on /parameters and /ws hold no other client', async (t) => {
  const { base } = await serve(t, {}, { studio: { type: 'dummy', parameters: [`${subject},S,x`, 'level,I,1'] } });
  const wsBase = base.replace('http', 'ws');
  const stall = await longestStall(async () => {
    for (const source of [...catastrophic, ...refused]) {
      const filter = encodeURIComponent(source);
      const listed = await fetch(`${base}/parameters?filter=${filter}`, { headers: { accept: 'application/json' } });
      const reading = await fetch(`${base}/parameters/studio/level`);
      t.is(await reading.text(), '1');
      if (refused.includes(source)) {
        t.is(listed.status, 400, source);
        t.is(((await listed.json()) as { code: string }).code, 'PB_BAD_FILTER');
        await t.throwsAsync(Client.open(t, `${wsBase}/ws?filter=${filter}`), { message: /upgrade refused: 400/ });
      } else {
        t.is(listed.status, 200, source);
        await listed.arrayBuffer();
        const client = await Client.open(t, `${wsBase}/ws?filter=${filter}`);
        client.socket.close();
      }
    }
  });
  t.true(stall < 1000, `the event loop was held ${stall.toFixed(0)} ms`);
});

test('catastrophic wsFilters and matches steps are accepted and cheap, or refused as flow-file mistakes with their path', async (t) => {
  for (const source of refused) {
    const result = validateFlow(
      {
        connections: { api: { type: 'rest-api', port: 0, wsFilters: [source] }, studio: { type: 'dummy', parameters: ['a,S', 'b,S'] } },
        rules: [{ source: 'studio/a', destinations: ['studio/b'], pipe: [{ filter: { matches: source } }] }],
      },
      '/virtual/flow.json5',
    );
    t.false(result.ok, source);
    if (!result.ok) {
      const paths = result.issues.map((issue) => issue.path.join('.'));
      t.true(paths.includes('connections.api.wsFilters.0'), `${source}: ${paths.join(', ')}`);
      t.true(
        paths.some((path) => path.startsWith('rules.0.pipe.0')),
        `${source}: ${paths.join(', ')}`,
      );
    }
  }
  const stall = await longestStall(async () => {
    const hub = await startHub(t, {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', wsFilters: catastrophic },
        studio: { type: 'dummy', parameters: [`${subject},S,x`, 'copy,S'] },
      },
      rules: catastrophic.map((source) => ({
        source: `studio/${subject}`,
        destinations: ['studio/copy'],
        pipe: [{ filter: { matches: source } }],
      })),
    });
    param(hub, `studio/${subject}`).set(subject);
    await settle(50);
  });
  t.true(stall < 1000, `the event loop was held ${stall.toFixed(0)} ms`);
});

test('an expression compiles once for every client and rule that uses it, within a bounded set of expressions', (t) => {
  const first = compileRegex('^bench/p1$');
  const again = compileRegex('^bench/p1$');
  t.true(first.ok && again.ok && first.value === again.value, '10,000 dashboards with one filter share one program');
  for (let i = 0; i < 300; i++) compileRegex(`^distinct/${i}$`);
  const later = compileRegex('^bench/p1$');
  t.true(later.ok && first.ok && later.value !== first.value, 'distinct expressions do not grow the set without bound');
  t.true(later.ok && later.value.test('bench/p1') && !later.value.test('bench/p10'));
});
