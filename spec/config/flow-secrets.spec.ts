import test from 'ava';
import { HIDDEN, hideSecrets, restoreSecrets } from '../../lib/config/flow-secrets.ts';

const file = `// Studio A
{
  connections: {
    api: {
      type: 'rest-api',
      token: 'full-access-secret', // the engineer's
      tokens: [
        { name: 'ops', token: 'ops-secret', read: ['#'] },
        { name: 'wall', token: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', read: ['+/onair'] },
        { name: 'desk', token: '\${DESK_TOKEN}', read: ['#'] },
      ],
    },
    bus: { type: "mqtt", url: "mqtts://hub:broker-secret@broker.lan:8883", password: '' },
    player: { type: 'http-client', baseUrl: 'http://10.0.0.7', headers: { Authorization: 'Bearer player-secret', 'X-Studio': 'A' } },
  },
}
`;

test('a browser is shown every literal secret hidden, and placeholders, hashes and empty values as written', (t) => {
  const shown = hideSecrets(file);
  for (const secret of ['full-access-secret', 'ops-secret', 'broker-secret', 'player-secret']) t.false(shown.includes(secret), secret);
  t.true(shown.includes(`token: '${HIDDEN}', // the engineer's`), 'in place, quoting and comment kept');
  t.true(shown.includes('sha256:9f86d08'), 'a hash is no secret');
  t.true(shown.includes("token: '${DESK_TOKEN}'"), 'a placeholder names a variable');
  t.true(
    shown.includes(`url: "mqtts://${HIDDEN}@broker.lan:8883", password: ''`),
    "a URL's user info; an empty password shows it is not set",
  );
  t.true(
    shown.includes(`headers: { Authorization: '${HIDDEN}', 'X-Studio': '${HIDDEN}' }`),
    'every header value, as /connections masks them',
  );
  t.is(shown.split('\n').length, file.split('\n').length);
});

test('a password holding @ is hidden whole: the user info ends at the last @ before the host, as a URL parser reads it', (t) => {
  const text = `{ connections: { bus: { type: 'mqtt', url: 'mqtt://hub:p@3-secretTAIL@broker.lan:1883/x@y' } } }`;
  const shown = hideSecrets(text);
  t.false(shown.includes('secretTAIL'), shown);
  t.true(shown.includes(`url: 'mqtt://${HIDDEN}@broker.lan:1883/x@y'`), shown);
  t.deepEqual(restoreSecrets(shown, text), { text, issues: [] });
});

test("an API key in a URL's query and a password in an http-client's body are hidden, and put back where nothing else changed", (t) => {
  const text = `{ connections: { weather: { type: 'http-client', baseUrl: 'https://api.example/v1?city=oslo&api_key=K3Y-S3CRET',
    requests: { login: { method: 'POST', path: '/login', body: '{"user": "studio", "password": "hunter2"}' },
      form: { method: 'POST', path: '/form', body: 'user=studio&access_token=T0KEN' } } } } }`;
  const shown = hideSecrets(text);
  for (const secret of ['K3Y-S3CRET', 'hunter2', 'T0KEN']) t.false(shown.includes(secret), secret);
  t.true(shown.includes(`?city=oslo&api_key=${HIDDEN}`), 'the rest of the query as it is');
  t.true(shown.includes(`"user": "studio", "password": "${HIDDEN}"`), 'the rest of the body as it is');
  t.true(shown.includes(`user=studio&access_token=${HIDDEN}`));
  t.deepEqual(restoreSecrets(shown, text), { text, issues: [] });
});

test("a module's secret is not put back when its config's ip moves; a rest-api's is when only its bindIp does", (t) => {
  const module = (ip: string) =>
    `{ connections: { mixer: { type: 'companion-module', module: './modules/x.tgz', config: { ip: '${ip}', port: 9100 }, secrets: { password: 'desk-secret' } } } }`;
  const shown = hideSecrets(module('10.0.0.5'));
  t.false(shown.includes('desk-secret'));
  t.deepEqual(
    restoreSecrets(shown.replace('10.0.0.5', '203.0.113.9'), module('10.0.0.5')).issues.map((issue) => issue.path),
    [['connections', 'mixer', 'secrets', 'password']],
  );
  t.deepEqual(restoreSecrets(shown, module('10.0.0.5')).issues, [], 'put back where it went');
  const api = (bindIp: string) => `{ connections: { api: { type: 'rest-api', bindIp: '${bindIp}', port: 8080, token: 'api-secret' } } }`;
  const moved = hideSecrets(api('127.0.0.1')).replace('127.0.0.1', '0.0.0.0');
  t.deepEqual(restoreSecrets(moved, api('127.0.0.1')), { text: api('0.0.0.0'), issues: [] }, 'where it listens is no destination');
});

test('a text sent back gets every hidden secret from the file as it is, byte for byte where nothing else changed', (t) => {
  const shown = hideSecrets(file);
  t.deepEqual(restoreSecrets(shown, file), { text: file, issues: [] });
  const edited = shown.replace("read: ['+/onair']", "read: ['+/onair', 'clock/#']");
  t.deepEqual(restoreSecrets(edited, file), { text: file.replace("read: ['+/onair']", "read: ['+/onair', 'clock/#']"), issues: [] });
});

test('a secret typed over the hidden one is saved as typed; a hidden one with none to put back is a mistake at its path', (t) => {
  const shown = hideSecrets(file);
  const retyped = shown.replace(`token: '${HIDDEN}', // the engineer's`, "token: 'a-new-secret', // the engineer's");
  const { text } = restoreSecrets(retyped, file);
  t.true(text.includes("token: 'a-new-secret'"));
  t.true(text.includes("token: 'ops-secret'"));
  const moved = shown.replace('    player: {', '    deck: {');
  t.deepEqual(restoreSecrets(moved, file).issues, [
    { path: ['connections', 'deck', 'headers', 'Authorization'], message: 'a hidden secret with none to put back here: type its value' },
    { path: ['connections', 'deck', 'headers', 'X-Studio'], message: 'a hidden secret with none to put back here: type its value' },
  ]);
});

test('a " inside single quotes and a literal key are read: the secrets are hidden and put back byte for byte', (t) => {
  const odd = `{ connections: { api: { type: 'rest-api', password: 'a "quoted" secret', url: "mqtt://user:pw@broker", note: 'say "hi"', map: { true: 1 } } } }`;
  const shown = hideSecrets(odd);
  t.false(shown.includes('secret'), shown);
  t.false(shown.includes('user:pw'), shown);
  t.true(shown.includes(`note: 'say "hi"', map: { true: 1 }`), shown);
  t.deepEqual(restoreSecrets(shown, odd), { text: odd, issues: [] });
});

test('a text with a mistake still has its secrets hidden, and a save of it with a hidden one is refused with why', (t) => {
  const broken = `{ connections: { api: { type: 'rest-api', password: 'a secret', url: "mqtt://user:pw@broker" } }`;
  const shown = hideSecrets(broken);
  t.false(shown.includes('secret'), shown);
  t.false(shown.includes('user:pw'), shown);
  const { issues } = restoreSecrets(shown, broken);
  t.is(issues.length, 1);
  t.deepEqual(issues[0]?.path, []);
  t.regex(issues[0]?.message ?? '', /cannot be put back.*mistake/);
});

test('a hidden secret follows its entry by name, not its place: tokens reordered or removed keep their own secrets', (t) => {
  const shown = hideSecrets(file);
  const opsLine = "        { name: 'ops', token: '••••••', read: ['#'] },\n";
  t.true(shown.includes(opsLine));
  // Removed: the entries after it move up a place, and keep their own secrets.
  const removed = restoreSecrets(shown.replace(opsLine, ''), file);
  t.deepEqual(removed.issues, []);
  t.false(removed.text.includes('ops-secret'), "the removed token's secret is gone with it");
  // Reordered: each keeps its own.
  const wall = shown.split('\n').find((line) => line.includes("name: 'wall'")) ?? '';
  const swapped = restoreSecrets(shown.replace(`${opsLine}${wall}\n`, `${wall}\n${opsLine}`), file);
  t.deepEqual(swapped.issues, []);
  t.regex(swapped.text, /\{ name: 'ops', token: 'ops-secret', read: \['#'\] \}/);
  // Renamed: its secret is not handed on; type it.
  t.is(restoreSecrets(shown.replace("name: 'ops'", "name: 'operator'"), file).issues.length, 1);
});

test("a placeholder's default is hidden where it gives a secret, and put back", (t) => {
  const withDefault = "{ connections: { bus: { type: 'mqtt', password: '${BROKER_PASS:-fallback-secret}', clientId: '${ID:-studio}' } } }";
  const shown = hideSecrets(withDefault);
  t.is(shown, "{ connections: { bus: { type: 'mqtt', password: '${BROKER_PASS:-••••••}', clientId: '${ID:-studio}' } } }");
  t.deepEqual(restoreSecrets(shown, withDefault), { text: withDefault, issues: [] });
});

test('a secret written as a number or a boolean is hidden too, and goes back as it was written; in a text with a mistake as well', (t) => {
  const pin = `{ connections: { desk: { type: 'tcp-client', host: '10.0.0.9', port: 23, password: 123456, apiKey: 0x1F, secret: true } } }\n`;
  const shown = hideSecrets(pin);
  for (const secret of ['123456', '0x1F', 'true']) t.false(shown.includes(secret), secret);
  t.regex(shown, new RegExp(`password: ["']${HIDDEN}["']`));
  const edited = shown.replace('port: 23,', "port: 23, description: 'the desk',");
  t.deepEqual(restoreSecrets(edited, pin), { text: pin.replace('port: 23,', "port: 23, description: 'the desk',"), issues: [] });
  const broken = hideSecrets(pin.replace("type: 'tcp-client'", 'type: tcp-client'));
  for (const secret of ['123456', '0x1F']) t.false(broken.includes(secret), `${secret} in a text with a mistake`);
});

test("a surface's key by its number is no secret; a key elsewhere still is", (t) => {
  const shown = hideSecrets(`{
  connections: {
    desk: { type: 'satellite', keys: [{ device: 'deck', key: 2, text: 'CUT' }] },
    vault: { type: 'http-client', baseUrl: 'http://10.0.0.9', key: 1234 },
  },
}
`);
  t.true(shown.includes("keys: [{ device: 'deck', key: 2, text: 'CUT' }]"), shown);
  t.false(shown.includes('1234'), 'a number named key outside `keys` is hidden');
});
