import test from 'ava';
import type { ParameterHooks } from '../../lib/core/parameter.ts';
import { createParameter, type OwnedParameter } from '../../lib/core/parameter.ts';
import type { Value } from '../../lib/core/value.ts';
import { Loop, LoopGuard } from '../../lib/rules/loop-guard.ts';

/** Parameters of one graph whose cause tracker is `guard`. */
function parameters(guard: LoopGuard, ...ids: string[]): OwnedParameter[] {
  const causes: ParameterHooks = { tracker: guard };
  return ids.map((id) => createParameter('c', id, { type: 'I', access: 'read-write' }, causes));
}

/**
 * Wires a rule the way the engine does: from `source` to `destination` through `step`,
 * with the guard around the change arriving and around the write.
 */
function rule(guard: LoopGuard, source: OwnedParameter, destination: OwnedParameter, step: (v: Value) => Value, loops: Loop[]): void {
  const from = guard.point(source.address);
  const to = guard.point(destination.address);
  source.changes$.subscribe((value) => {
    const arrived = guard.arrive(from);
    try {
      const mark = guard.enter(to);
      if (typeof mark !== 'number') {
        loops.push(mark);
        return;
      }
      try {
        destination.set(step(value));
      } finally {
        guard.leave(mark);
      }
    } finally {
      guard.leave(arrived);
    }
  });
}

/** Whether the guard lets a write to `address` through; the chain is left as it was. */
function passes(guard: LoopGuard, address: string): boolean {
  const mark = guard.enter(guard.point(address));
  if (typeof mark !== 'number') return false;
  guard.leave(mark);
  return true;
}

test('an address is one point, so chains compare identities', (t) => {
  const guard = new LoopGuard(3);
  t.is(guard.point('c/a'), guard.point('c/a'));
  t.not(guard.point('c/a'), guard.point('c/b'));
});

test('changes from outside start fresh chains, however many come in one turn', (t) => {
  const guard = new LoopGuard(3);
  for (let i = 0; i < 1000; i++) {
    const mark = guard.arrive(guard.point('c/source'));
    t.true(passes(guard, 'c/destination'));
    guard.leave(mark);
  }
  t.is(guard.capture(), undefined, 'nothing is left on the chain between changes');
});

test('a write nested in a change of its own address is a round; the round after the limit is cut with its chain', (t) => {
  const guard = new LoopGuard(3);
  const a = guard.point('c/a');
  const b = guard.point('c/b');
  const marks = [guard.arrive(a)];
  let loop: Loop | undefined;
  for (let hop = 0; hop < 20 && !loop; hop++) {
    const mark = guard.enter(hop % 2 === 0 ? b : a);
    if (typeof mark === 'number') marks.push(mark);
    else loop = mark;
  }
  t.deepEqual(loop, new Loop(['c/a', 'c/b', 'c/a'], 3, false));
  t.is(marks.length, 8, 'a, then b and a three times over, then b');
  guard.leave(marks[0] as number);
  t.is(guard.capture(), undefined);
});

test('a loop is reported once; later returns in the same cascade are dropped quietly, and the next change starts afresh', (t) => {
  const guard = new LoopGuard(0);
  const a = guard.point('c/a');
  const arrived = guard.arrive(a);
  const mark = guard.enter(guard.point('c/b'));
  t.is(typeof mark, 'number');
  t.deepEqual(guard.enter(a), new Loop(['c/a', 'c/b', 'c/a'], 0, false));
  t.is(guard.enter(a), Loop.quiet);
  t.true(passes(guard, 'c/other'), 'a write that does not come back is not a loop');
  guard.leave(arrived);
  const next = guard.arrive(a);
  t.deepEqual(guard.enter(a), new Loop(['c/a', 'c/a'], 0, false), 'a new cascade reports its loop again');
  guard.leave(next);
});

test('a loop through parameters is cut although each round is queued behind the delivery in progress', (t) => {
  const guard = new LoopGuard(10);
  const loops: Loop[] = [];
  const [a, b] = parameters(guard, 'a', 'b') as [OwnedParameter, OwnedParameter];
  rule(guard, a, b, (v) => Number(v) + 1, loops);
  rule(guard, b, a, (v) => Number(v) + 1, loops);
  let changes = 0;
  b.changes$.subscribe(() => {
    if (++changes > 1000) throw new Error('the loop was not cut');
  });
  a.set(0);
  t.deepEqual(loops, [new Loop(['c/a', 'c/b', 'c/a'], 10, false)]);
  t.deepEqual([a.value, b.value], [20, 21], 'a went round ten times after the first change, two steps a round');
  t.is(guard.capture(), undefined, 'the chain is empty again');
});

test('without the causes of queued writes, a loop would look like fresh changes', (t) => {
  const guard = new LoopGuard(10);
  const loops: Loop[] = [];
  // Parameters that do not report to the guard: each queued round starts a fresh chain.
  const [a, b] = ['a', 'b'].map((id) => createParameter('c', id, { type: 'I', access: 'read-write' })) as OwnedParameter[] as [
    OwnedParameter,
    OwnedParameter,
  ];
  rule(guard, a, b, (v) => Number(v) + 1, loops);
  rule(guard, b, a, (v) => Math.min(Number(v) + 1, 100), loops);
  a.set(0);
  t.deepEqual(loops, [], 'the loop ran until its values settled');
  t.is(a.value, 100);
});

test('a link made by something other than a rule shows in the chain of the loop it closes', (t) => {
  const guard = new LoopGuard(5);
  const loops: Loop[] = [];
  const [logic, inverted] = parameters(guard, 'logic', 'inverted') as [OwnedParameter, OwnedParameter];
  // A logic function: it follows its input without the guard, as a connection does.
  logic.changes$.subscribe((v) => inverted.report(v === 0 ? 1 : 0));
  rule(guard, inverted, logic, (v) => v, loops);
  logic.set(1);
  t.deepEqual(loops, [new Loop(['c/logic', 'c/inverted', 'c/logic'], 5, false)]);
});

test('queued writes from one change share the snapshot of its chain', (t) => {
  const guard = new LoopGuard(5);
  const arrived = guard.arrive(guard.point('c/a'));
  const mark = guard.enter(guard.point('c/b'));
  const first = guard.capture();
  t.is(guard.capture(), first);
  t.not(first, undefined);
  guard.leave(mark as number);
  guard.leave(arrived);
});

test('a change that comes after a wait starts a fresh chain', (t) => {
  const guard = new LoopGuard(1);
  for (let i = 0; i < 10; i++) {
    t.true(passes(guard, 'c/a'), 'a timed step emits outside any delivery');
    t.true(passes(guard, 'c/b'));
  }
});

test('loops that branch are cut once their cascade has come back 64 times the limit in all', (t) => {
  const guard = new LoopGuard(1000);
  const a = guard.point('c/a');
  const arrived = guard.arrive(a);
  let cut: Loop | undefined;
  let returns = 0;
  // Each return below the per-chain limit, as the branches of a doubling loop are.
  for (; returns < 100_000 && !cut; returns++) {
    const mark = guard.enter(a);
    if (typeof mark === 'number') guard.leave(mark);
    else cut = mark;
  }
  t.deepEqual(cut, new Loop(['c/a', 'c/a'], 64_000, true));
  t.is(returns, 64_001);
  guard.leave(arrived);
});
