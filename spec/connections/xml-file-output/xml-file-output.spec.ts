import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { SaxesParser } from 'saxes';
import { eventually } from '../../helpers/eventually.ts';
import { flowOf, param, startHub } from '../../helpers/hub.ts';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { Hub } from '../../../lib/hub/hub.ts';
import { formatIssue } from '../../../lib/core/issue.ts';

const template = `<?xml version="1.0" encoding="UTF-8"?>
<nowplaying station="$Station">
  <title>$Title</title>
  <artist>$Artist</artist>
  <!-- not a placeholder: $Comment -->
  <price currency="EUR">$Price</price>
</nowplaying>`;

async function xmlHub(t: ExecutionContext, settings: object, extra: object = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-xml-'));
  await mkdir(join(dir, 'out'));
  const hub = await startHub(
    t,
    { connections: { np: { type: 'xml-file-output', filename: 'out/now.xml', template, ...settings }, ...extra } },
    { dir },
  );
  return { hub, dir, file: join(dir, 'out', 'now.xml') };
}

function wellFormed(text: string): boolean {
  const parser = new SaxesParser();
  let ok = true;
  parser.on('error', () => (ok = false));
  parser.write(text).close();
  return ok;
}

test('each distinct $Name in text and attributes is a write-only string parameter', async (t) => {
  const { hub } = await xmlHub(t, {});
  t.deepEqual(
    hub.graph.byPrefix('np/').map((p) => [p.id, p.type, p.access]),
    [
      ['Station', 'S', 'write-only'],
      ['Title', 'S', 'write-only'],
      ['Artist', 'S', 'write-only'],
      ['Price', 'S', 'write-only'],
    ],
  );
});

test('a write renders the template with escaped values, never-set ones empty, and saves the file', async (t) => {
  const { hub, file } = await xmlHub(t, {});
  param(hub, 'np/Title').set('Rock & Roll <Live> "1977"');
  param(hub, 'np/Price').set(9.5);
  await hub.stop(); // flushes pending writes
  const text = await readFile(file, 'utf8');
  t.true(wellFormed(text));
  t.is(
    text,
    template
      .replace('$Station', '')
      .replace('$Title', 'Rock &amp; Roll &lt;Live&gt; &quot;1977&quot;')
      .replace('$Artist', '')
      .replace('$Price', '9.5'),
  );
  t.true(text.includes('$Comment'), 'a $Name in a comment is left alone');
});

test('a relative filename resolves against the flow file folder', async (t) => {
  const { hub, file } = await xmlHub(t, {});
  param(hub, 'np/Station').set('Radio 1');
  await eventually(async () => (await readFile(file, 'utf8').catch(() => '')).includes('station="Radio 1"'), 'the file');
  t.pass();
});

test('a reader polling during 10,000 writes never sees a torn document, and the file ends with the last values', async (t) => {
  const { hub, file } = await xmlHub(t, {});
  const title = param(hub, 'np/Title');
  const artist = param(hub, 'np/Artist');
  let reads = 0;
  let torn = 0;
  let writing = true;
  const reader = (async () => {
    while (writing) {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text !== undefined) {
        reads++;
        if (!wellFormed(text) || !text.endsWith('</nowplaying>')) torn++;
      }
    }
  })();
  for (let i = 1; i <= 10_000; i++) {
    title.set(`Song ${i} ${'♪'.repeat(i % 50)}`);
    artist.set(`Artist <${i}>`);
    if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await hub.stop();
  writing = false;
  await reader;
  t.log(`${reads} reads during the writes`);
  t.true(reads > 10);
  t.is(torn, 0);
  const text = await readFile(file, 'utf8');
  t.true(text.includes(`<title>Song 10000 </title>`));
  t.true(text.includes('<artist>Artist &lt;10000&gt;</artist>'));
});

test('a template that is not well-formed is a flow-file mistake with line and column (R-X2)', (t) => {
  const result = validateFlow(
    { connections: { np: { type: 'xml-file-output', filename: 'now.xml', template: '<show>\n  <title>$Title</titel>\n</show>' } } },
    join(tmpdir(), 'flow.json5'),
  );
  t.deepEqual(result.ok ? [] : result.issues.map(formatIssue), [
    'connections.np.template: not well-formed XML: line 2, column 23: unexpected close tag.',
  ]);
});

test('a write failure is shown in the status, and the next write tries again (R-X5)', async (t) => {
  const { hub, dir, file } = await xmlHub(t, {});
  // The file written at start goes first: removing the folder while that write is in
  // flight races it (rm's rmdir fails ENOTEMPTY once the write's temporary file lands).
  await eventually(async () => (await readdir(join(dir, 'out'))).join() === 'now.xml', 'the file written at start');
  t.truthy(await readFile(file, 'utf8'));
  await rm(join(dir, 'out'), { recursive: true }); // the folder goes while the hub runs
  param(hub, 'np/Title').set('first');
  await eventually(async () => hub.connection('np')?.status.status === 'degraded', 'the failure');
  t.is(hub.connection('np')?.status.reason, `the folder ${join(dir, 'out')} does not exist; the file is written once it does`);
  t.is(hub.connection('np')?.status.code, 'PB_FILE_WRITE');
  await mkdir(join(dir, 'out'));
  param(hub, 'np/Title').set('second');
  await eventually(async () => hub.connection('np')?.status.status === 'ok', 'the recovery');
  t.true((await readFile(join(dir, 'out', 'now.xml'), 'utf8')).includes('<title>second</title>'));
});

test('an output folder missing at start is a warning, not a mistake: the connection runs degraded, takes writes, and saves the latest values once the folder is there, without another write (R-X5)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-xml-'));
  const document = {
    connections: {
      vars: { type: 'dummy', parameters: ['title,S'] },
      np: { type: 'xml-file-output', filename: 'graphics/now.xml', template: '<now>$Title</now>' },
    },
    rules: [{ source: 'vars/title', destinations: ['np/Title'] }],
  };
  const path = join(dir, 'flow.json5');
  const validated = validateFlow(document, path);
  if (!validated.ok) throw validated.error;
  t.deepEqual(validated.flow.warnings.map(formatIssue), [
    `connections.np.filename: the folder ${join(dir, 'graphics')} does not exist (yet); the file is written once it does`,
  ]);
  const hub = new Hub({ flow: validated.flow });
  t.teardown(() => hub.stop());
  await hub.start();
  const reason = `the folder ${join(dir, 'graphics')} does not exist; the file is written once it does`;
  t.like(hub.connection('np')?.status, { status: 'degraded', code: 'PB_FILE_WRITE', reason });
  param(hub, 'vars/title').set('Blue Train');
  t.is(param(hub, 'np/Title').value, 'Blue Train', 'a rule that targets it binds, and its write is taken');
  await eventually(async () => hub.connection('np')?.status.reason === reason, 'the failed save reported');
  await mkdir(join(dir, 'graphics')); // the share is mounted
  await eventually(
    async () => (await readFile(join(dir, 'graphics', 'now.xml'), 'utf8').catch(() => '')) === '<now>Blue Train</now>',
    'the file, with no write after the folder came',
  );
  await eventually(async () => hub.connection('np')?.status.status === 'ok', 'the connection ok');
  param(hub, 'vars/title').set('Giant Steps');
  await hub.stop();
  t.is(await readFile(join(dir, 'graphics', 'now.xml'), 'utf8'), '<now>Giant Steps</now>');
});

test('without renderAtStart, a folder missing at start shows degraded until it is there, and the first write then saves', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-xml-'));
  const hub = await startHub(
    t,
    {
      connections: {
        np: { type: 'xml-file-output', filename: 'graphics/now.xml', template: '<now>$Title</now>', renderAtStart: false },
      },
    },
    { dir },
  );
  t.like(hub.connection('np')?.status, { status: 'degraded', code: 'PB_FILE_WRITE' });
  await mkdir(join(dir, 'graphics'));
  await eventually(async () => hub.connection('np')?.status.status === 'ok', 'ok once the folder is there');
  t.deepEqual(await readdir(join(dir, 'graphics')), [], 'nothing written before a write');
  param(hub, 'np/Title').set('Naima');
  await eventually(
    async () => (await readFile(join(dir, 'graphics', 'now.xml'), 'utf8').catch(() => '')) === '<now>Naima</now>',
    'the file',
  );
});

test('a changed template is taken in place: placeholders that stay keep their values, and the next write uses it', async (t) => {
  const { hub, dir, file } = await xmlHub(t, {});
  param(hub, 'np/Title').set('Blue Train');
  param(hub, 'np/Artist').set('John Coltrane');
  await eventually(async () => (await readFile(file, 'utf8').catch(() => '')).includes('Blue Train'), 'the first file');
  const summary = await hub.reload(
    flowOf(
      {
        connections: {
          np: { type: 'xml-file-output', filename: 'out/now.xml', template: '<now><title>$Title</title><year>$Year</year></now>' },
        },
      },
      dir,
    ),
  );
  t.deepEqual(summary.updated, ['np']);
  t.is(hub.connection('np')?.status.status, 'ok');
  t.deepEqual(
    hub.graph.byPrefix('np/').map((p) => p.id),
    ['Title', 'Year'],
  );
  t.is(param(hub, 'np/Title').value, 'Blue Train');
  param(hub, 'np/Year').set('1958');
  await eventually(
    async () => (await readFile(file, 'utf8')) === '<now><title>Blue Train</title><year>1958</year></now>',
    'the file from the new template',
  );

  t.throws(
    () => flowOf({ connections: { np: { type: 'xml-file-output', filename: 'out/now.xml', template: '<now>$Title</then>' } } }, dir),
    {
      message: /connections\.np\.template: not well-formed XML: line 1, column 18/,
    },
  );
});

/** A strict XML 1.0 parse: every error saxes finds, with the text it parsed. */
function xmlErrors(text: string): string[] {
  const parser = new SaxesParser();
  const errors: string[] = [];
  parser.on('error', (error) => errors.push(error.message));
  parser.write(text).close();
  return errors;
}

test('any written text keeps the file well-formed: XML 1.0 characters stay exact, the rest become U+FFFD', async (t) => {
  const { hub, file } = await xmlHub(t, {});
  const c0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
  const awkward = `${c0}\u007f\u0085\ud800 \udfff \udc00\ud800 \ufffe\uffff end 😀 \ud83d\ude00`;
  param(hub, 'np/Station').set(awkward); // an attribute value
  param(hub, 'np/Title').set(awkward); // text
  param(hub, 'np/Artist').set('line one\r\nline two\ttabbed');
  await hub.stop();
  const text = await readFile(file, 'utf8');
  t.deepEqual(xmlErrors(text), []);
  const read = { station: '', title: '', artist: '' };
  const parser = new SaxesParser();
  let inside = '';
  parser.on('opentag', (tag) => {
    inside = tag.name;
    if (tag.name === 'nowplaying') read.station = tag.attributes.station as string;
  });
  parser.on('text', (chunk) => {
    if (inside === 'title') read.title += chunk;
    if (inside === 'artist') read.artist += chunk;
  });
  parser.on('closetag', () => (inside = ''));
  parser.write(text).close();
  const expected = `${'\ufffd'.repeat(9)}\t\n${'\ufffd'.repeat(2)}\r${'\ufffd'.repeat(18)}\u007f\u0085\ufffd \ufffd \ufffd\ufffd \ufffd\ufffd end 😀 😀`;
  t.is(read.title, expected, 'text');
  t.is(read.station, expected, 'an attribute value: tab, line feed and carriage return survive normalization');
  t.is(read.artist, 'line one\r\nline two\ttabbed');
});

test('temporary files left by a killed hub beside the output are removed at start; anything else is left alone', async (t) => {
  const gone = spawn('true');
  await once(gone, 'exit'); // its process id now names no process, like a hub killed with kill -9
  const alive = spawn('sleep', ['60']); // another process still writing the same file
  t.teardown(() => alive.kill());
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-xml-'));
  await mkdir(join(dir, 'out'));
  const planted = [
    `.now.xml.${gone.pid}.tmp`,
    `.now.xml.${process.pid}.tmp`, // this process's own, left by an earlier connection
    `.now.xml.${alive.pid}.tmp`,
    `.other.xml.${gone.pid}.tmp`,
    '.now.xml.tmp',
    '.now.xml.12x.tmp',
    `now.xml.${gone.pid}.tmp`,
    'now.xml',
  ];
  for (const name of planted) await writeFile(join(dir, 'out', name), '<half');
  const hub = await startHub(t, { connections: { np: { type: 'xml-file-output', filename: 'out/now.xml', template } } }, { dir });
  t.is(hub.connection('np')?.status.status, 'ok');
  await hub.stop(); // the file rendered at start is saved (through a temporary file of this process)
  t.deepEqual((await readdir(join(dir, 'out'))).sort(), planted.slice(2).sort());
});
