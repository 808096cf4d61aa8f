import test from 'ava';
import { ReplayBudget, ReplayBuffer, ResumeTokens } from '../../../lib/http/ws/resume.ts';

const limits = { window: 1000, changes: 5, bytes: 100, totalBytes: 1_000_000 };

test('a replay buffer gives what followed a seq, in order, or nothing once any of it was let go: by count, by bytes, by age', (t) => {
  const buffer = new ReplayBuffer(limits, 10);
  t.deepEqual(buffer.since(10, false, 0)?.messages, [], 'nothing missed');
  t.is(buffer.since(9, false, 0), undefined, 'from before the topic began');
  for (let seq = 11; seq <= 17; seq++) buffer.push(seq, 'a', `m${seq}`, 0);
  t.is(buffer.size, 5);
  t.deepEqual(buffer.since(12, false, 0)?.messages, ['m13', 'm14', 'm15', 'm16', 'm17']);
  t.is(buffer.since(11, false, 0), undefined, 'm12 was let go: a replay from 11 would miss it');
  // A long message takes the place of several.
  buffer.push(18, 'b', 'x'.repeat(95), 0);
  t.is(buffer.size, 2);
  t.true(buffer.bytes <= 100);
  t.deepEqual(buffer.since(16, false, 0)?.seqs, [17, 18]);
  // Past the window: none of it is kept.
  t.is(buffer.since(17, false, 1001), undefined);
  t.is(buffer.size, 0);
  t.is(buffer.bytes, 0);
});

test('the topics of a hub keep at most totalBytes together: a topic that would pass it lets go of its own oldest', (t) => {
  const budget = new ReplayBudget();
  const shared = { window: 1000, changes: 1000, bytes: 1000, totalBytes: 300 };
  const [a, b, c] = [new ReplayBuffer(shared, 0, budget), new ReplayBuffer(shared, 0, budget), new ReplayBuffer(shared, 0, budget)];
  for (let seq = 1; seq <= 100; seq++) for (const buffer of [a, b, c]) buffer.push(seq, 'k', 'x'.repeat(10), 0);
  t.true(budget.used <= 300 + 3 * 10, `${budget.used} bytes kept`);
  t.true(a.size > 0 && b.size > 0 && c.size > 0, 'each keeps its newest');
  t.is(a.since(50, false, 0), undefined, 'what it let go is not replayed');
  a.clear();
  t.is(budget.used, b.bytes + c.bytes, 'a topic that goes gives its bytes back');
});

test("a conflated replay keeps each key's last message, in the order of those messages", (t) => {
  const buffer = new ReplayBuffer({ ...limits, changes: 10, bytes: 1000 }, 0);
  for (const [seq, key] of [
    [1, 'level'],
    [2, 'title'],
    [3, 'level'],
    [4, 'cue'],
    [5, 'title'],
  ] as const)
    buffer.push(seq, key, `${key}${seq}`, 0);
  t.deepEqual(buffer.since(1, true, 0)?.messages, ['level3', 'cue4', 'title5']);
  t.deepEqual(buffer.since(1, false, 0)?.messages, ['title2', 'level3', 'cue4', 'title5']);
});

test('a resume token is ours only for the key it was made for, and stale from another run', (t) => {
  const tokens = new ResumeTokens();
  const token = tokens.tokenFor('batch 0\n*\nlevel');
  t.is(tokens.check(token, 'batch 0\n*\nlevel'), 'ours');
  t.is(tokens.check(token, 'batch 0\n*\ntitle'), 'foreign');
  // A changed last character (never the one it had: 'x' is a token's last 1 time in 64).
  const changed = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
  t.is(tokens.check(changed, 'batch 0\n*\nlevel'), 'foreign');
  t.is(new ResumeTokens().check(token, 'batch 0\n*\nlevel'), 'stale');
});
