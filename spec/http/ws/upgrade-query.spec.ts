import test from 'ava';
import { parseUpgradeQuery } from '../../../lib/http/ws/upgrade-query.ts';

const full = { mayReadLog: true };

test('an empty query asks for everything, one message per change, no events and no log', (t) => {
  const parsed = parseUpgradeQuery('', full);
  t.like(parsed, { ok: true, value: { batch: false, maxHz: 0, origins: false, events: false, logLevel: '' } });
  if (parsed.ok) t.deepEqual(parsed.value.filters, []);
});

test('filters, batch, maxHz, origins, events and log are read as a client writes them', (t) => {
  const parsed = parseUpgradeQuery('filter=%5Estudio%2F&filter=onair%24&batch=1&maxHz=10&origins=1&events=true&log=debug', full);
  t.true(parsed.ok);
  if (!parsed.ok) return;
  t.deepEqual(
    parsed.value.filters.map((f) => f.source),
    ['^studio/', 'onair$'],
  );
  t.like(parsed.value, { batch: true, maxHz: 10, origins: true, events: true, logLevel: 'debug' });
  t.like(parseUpgradeQuery('batch&events', full), { ok: true, value: { batch: true, events: true } }, 'a bare flag is yes');
  t.like(parseUpgradeQuery('batch=0&events=false', full), { ok: true, value: { batch: false, events: false } });
});

test('each bad value is refused with its code and a reason that says what is expected', (t) => {
  const refusal = (query: string, mayReadLog = true) => {
    const parsed = parseUpgradeQuery(query, { mayReadLog });
    return parsed.ok ? 'accepted' : `${parsed.error.code} ${parsed.error.message}`;
  };
  t.regex(refusal('filter=(a'), /^PB_BAD_FILTER filter "\(a"/);
  t.is(refusal('batch=yes'), 'PB_BAD_REQUEST batch is 1 or 0 (true or false)');
  for (const maxHz of ['-1', '1001', 'fast', 'NaN']) t.regex(refusal(`maxHz=${maxHz}`), /^PB_BAD_REQUEST maxHz is a number/, maxHz);
  t.is(refusal('log=loud'), 'PB_BAD_REQUEST log is one of fatal, error, warn, info, debug, trace');
  t.is(refusal('log=silent'), 'PB_BAD_REQUEST log is one of fatal, error, warn, info, debug, trace', 'silent is no level to follow');
  t.is(refusal('log=info', false), 'PB_FORBIDDEN this token may not read the log');
  t.is(refusal('events=2'), 'PB_BAD_REQUEST events is 1 or 0 (true or false)');
  t.is(refusal('origins=yes'), 'PB_BAD_REQUEST origins is 1 or 0 (true or false)');
});

test('maxHz is taken down to the rate ladder (1, 2, 5 times a power of ten, 0.1 to 1000), so a few rates serve every client (R-W2)', (t) => {
  const rate = (maxHz: string) => {
    const parsed = parseUpgradeQuery(`maxHz=${maxHz}`, full);
    return parsed.ok ? parsed.value.maxHz : parsed.error.message;
  };
  t.deepEqual(
    ['0', '0.1', '0.15', '0.3', '1', '1.9', '7', '10', '49', '99.9', '150', '999', '1000'].map(rate),
    [0, 0.1, 0.1, 0.2, 1, 1, 5, 10, 20, 50, 100, 500, 1000],
  );
  t.regex(String(rate('0.05')), /^maxHz is a number of times a second, 0\.1 to 1000/, 'below the lowest rate of the ladder');
});
