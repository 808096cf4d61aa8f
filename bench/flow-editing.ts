/**
 * The flow editor on a large flow (R-ED1–R-ED3), printed, not asserted: a generated flow
 * file of 500 connections and 2,000 rules in folders (about 5,000 lines, with comments),
 * run by a hub with its rest-api. Hub time, in process, median of the rounds: the tab's
 * read (`GET /flow`'s text and the draft that gives the forms their document), a form's
 * edit (`POST /flow/draft` with one connection changed), and a save of that edit (checked,
 * written, applied) beside the reload alone that the save ends with, and beside `patchbay
 * validate`'s check of the same text. Then, in Chromium, the flow tab opened on it: until its
 * 500 connections are listed. Run: npm run bench:flow [-- --rounds 5]
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { connectionTypes } from '../lib/config/connection-types.ts';
import { FlowEditor } from '../lib/config/flow-editor.ts';
import { flowFileJsonSchema, flowOfText, loadFlowFile } from '../lib/config/flow-file.ts';
import { createLogger } from '../lib/core/log.ts';
import { realTime } from '../lib/core/scheduler.ts';
import { Hub } from '../lib/hub/hub.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const CONNECTIONS = 500;
const RULES = 2000;
const FOLDERS = 20;

/** A studio's flow, written as people write them: comments, unquoted keys, single quotes. */
function largeFlow(): string {
  const lines = ['// A large studio: generated for the flow editor bench', '{', '  connections: {'];
  lines.push("    api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },");
  for (let i = 0; i < CONNECTIONS - 1; i++)
    lines.push(
      `    // Studio equipment ${i}`,
      `    desk${i}: {`,
      "      type: 'dummy',",
      `      description: 'desk ${i}',`,
      `      parameters: ['level,F,0', 'mute,B,false', 'label,S,desk ${i}'],`,
      '    },',
    );
  lines.push('  },', '  rules: [');
  for (let f = 0; f < FOLDERS; f++) {
    lines.push('    {', `      folder: 'area ${f}',`, '      rules: [');
    for (let r = 0; r < RULES / FOLDERS; r++) {
      const n = f * (RULES / FOLDERS) + r;
      const from = n % (CONNECTIONS - 1);
      const to = (n * 7 + 1) % (CONNECTIONS - 1);
      lines.push(`        { source: 'desk${from}/level', destinations: ['desk${to}/level'], pipe: [{ round: 2 }] },`);
    }
    lines.push('      ],', '    },');
  }
  lines.push('  ],', '}', '');
  return lines.join('\n');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

const dir = await mkdtemp(join(tmpdir(), 'patchbay-flow-bench-'));
const path = join(dir, 'studio.json5');
const text = largeFlow();
await writeFile(path, text);
const loaded = await loadFlowFile(path);
if (!loaded.ok) throw new Error(`the generated flow is refused: ${loaded.error.message}`);
const log = createLogger({ level: 'warn' });
const reloads: number[] = [];
let hub: Hub | undefined;
const editor = new FlowEditor({
  path,
  historyFolder: join(dir, 'flow-history'),
  apply: async (flow) => {
    const started = performance.now();
    await hub?.reload(flow);
    reloads.push(performance.now() - started);
  },
  schema: () => flowFileJsonSchema(loaded.flow.plugins),
  machineEdits: () => 'refused',
  types: () => connectionTypes,
  untouchable: [],
  log,
  scheduler: realTime,
});
hub = new Hub({ flow: loaded.flow, log, flowFile: editor });
await hub.start();
const base = `http://127.0.0.1:${hub.connection('api')!.info.details?.['port'] as number}`;

const reads: number[] = [];
const drafts: number[] = [];
const saves: number[] = [];
const checks: number[] = [];
try {
  console.log(
    `flow file: ${text.split('\n').length} lines, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, ${CONNECTIONS} connections, ${RULES} rules`,
  );
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    const read = await editor.read();
    await editor.draft(read.text, []);
    reads.push(performance.now() - started);

    started = performance.now();
    const edited = await editor.draft(read.text, [
      { op: 'set', path: ['connections', 'desk7', 'description'], value: `desk 7, round ${round}` },
    ]);
    drafts.push(performance.now() - started);
    if (edited.issues.length > 0) throw new Error(`the edit is refused: ${JSON.stringify(edited.issues)}`);

    started = performance.now();
    const checked = await flowOfText(edited.text, path);
    checks.push(performance.now() - started);
    if (!checked.ok) throw new Error(checked.error.message);

    started = performance.now();
    const saved = await editor.save(edited.text, read.etag, 'bench');
    saves.push(performance.now() - started);
    if (!saved.ok) throw new Error(`the save is refused: ${saved.error.message}`);
  }
  const onDisk = await readFile(path, 'utf8');
  const changed = onDisk.split('\n').filter((line, i) => line !== text.split('\n')[i]);
  console.log(`after ${rounds} saves the file differs from the generated one by ${changed.length} line(s): ${changed.join(' | ')}`);
  console.log(`hub time, median of ${rounds} rounds:`);
  console.log(`  the tab's read (text, secrets hidden, and the forms' document): ${ms(median(reads))}`);
  console.log(`  a form's edit, made in the text and checked (POST /flow/draft): ${ms(median(drafts))}`);
  console.log(`  a save, checked, written and applied (PUT /flow): ${ms(median(saves))}`);
  console.log(`    of which the live reload: ${ms(median(reloads))}; the check alone (patchbay validate's): ${ms(median(checks))}`);

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/console/`);
    const tab = page.getByRole('button', { name: 'flow', exact: true });
    await tab.waitFor({ timeout: 60_000 });
    const shown: number[] = [];
    for (let round = 0; round < 3; round++) {
      await page.getByRole('button', { name: 'parameters', exact: true }).click();
      const started = performance.now();
      await tab.click();
      await page.locator(`[data-testid=flow-connections] tr:nth-child(${CONNECTIONS})`).waitFor({ timeout: 60_000 });
      shown.push(performance.now() - started);
    }
    console.log(`the flow tab in Chromium, until its ${CONNECTIONS} connections are listed (median of 3): ${ms(median(shown))}`);
  } finally {
    await browser.close();
  }
} finally {
  await hub.stop();
  await rm(dir, { recursive: true, force: true });
}
