import test from 'ava';
import { currentCause } from '../../lib/core/cause.ts';
import { createParameter, type OwnedParameter } from '../../lib/core/parameter.ts';
import type { Value } from '../../lib/core/value.ts';
import { Loop, LoopGuard } from '../../lib/rules/loop-guard.ts';

/**
 * Wires parameters the way the engine does: a rule from `source` to `destination` that
 * applies `step`, with the guard around the change arriving and around the write.
 */
function rule(guard: LoopGuard, source: OwnedParameter, destination: OwnedParameter, step: (v: Value) => Value, loops: Loop[]) {
  source.changes$.subscribe((value) => {
    const outer = guard.arrive(source.address);
    try {
      const entry = guard.enter(destination.address);
      if (entry instanceof Loop) {
        loops.push(entry);
        return;
      }
      try {
        destination.set(step(value));
      } finally {
        guard.leave(entry);
      }
    } finally {
      guard.leave(outer);
    }
  });
}

const parameters = (...ids: string[]) => ids.map((id) => createParameter('c', id, { type: 'I', access: 'read-write' }));

/** A write the guard lets through, with its cause put back at once. */
function pass(guard: LoopGuard, address: string): boolean {
  const entry = guard.enter(address);
  if (entry instanceof Loop) return false;
  guard.leave(entry);
  return true;
}

test('changes from outside start fresh chains, however many come in one turn', (t) => {
  const guard = new LoopGuard(3);
  for (let i = 0; i < 1000; i++) {
    const outer = guard.arrive('c/source');
    t.true(pass(guard, 'c/destination'));
    guard.leave(outer);
  }
  t.is(currentCause(), undefined, 'nothing is left current between changes');
});

test('a write nested in a change of its own address is a round; the round after the limit is cut with its chain', (t) => {
  const guard = new LoopGuard(3);
  const outers = [guard.arrive('c/a')];
  let loop: Loop | undefined;
  for (let hop = 0; hop < 20 && !loop; hop++) {
    const entry = guard.enter(hop % 2 === 0 ? 'c/b' : 'c/a');
    if (entry instanceof Loop) loop = entry;
    else outers.push(entry);
  }
  t.deepEqual(loop, new Loop(['c/a', 'c/b', 'c/a'], 3, false));
  t.is(outers.length, 8, 'a, then b and a three times over, then b');
  for (const outer of outers.reverse()) guard.leave(outer);
  t.is(currentCause(), undefined);
});

test('a loop is reported once; later returns in the same cascade are dropped quietly, and the next change starts afresh', (t) => {
  const guard = new LoopGuard(0);
  const outer = guard.arrive('c/a');
  t.true(pass(guard, 'c/b'));
  const b = guard.enter('c/b');
  t.false(b instanceof Loop);
  if (b instanceof Loop) return;
  t.deepEqual(guard.enter('c/a'), new Loop(['c/a', 'c/b', 'c/a'], 0, false));
  t.is(guard.enter('c/a'), Loop.quiet);
  t.true(pass(guard, 'c/other'), 'a write that does not come back is not a loop');
  guard.leave(b);
  guard.leave(outer);
  const next = guard.arrive('c/a');
  t.true(pass(guard, 'c/b'));
  t.deepEqual(guard.enter('c/a'), new Loop(['c/a', 'c/a'], 0, false), 'a new cascade reports its loop again');
  guard.leave(next);
});

test('a loop through parameters is cut although each round is queued behind the delivery in progress', (t) => {
  const guard = new LoopGuard(10);
  const loops: Loop[] = [];
  const [a, b] = parameters('a', 'b') as [OwnedParameter, OwnedParameter];
  rule(guard, a, b, (v) => Number(v) + 1, loops);
  rule(guard, b, a, (v) => Number(v) + 1, loops);
  const seen: Value[] = [];
  b.changes$.subscribe((v) => {
    seen.push(v);
    if (seen.length > 1000) throw new Error('the loop was not cut');
  });
  a.set(0);
  t.deepEqual(loops, [new Loop(['c/a', 'c/b', 'c/a'], 10, false)]);
  t.deepEqual([a.value, b.value], [20, 21], 'a went round ten times after the first change, two steps a round');
  t.is(currentCause(), undefined);
});

test('a link made by something other than a rule shows in the chain of the loop it closes', (t) => {
  const guard = new LoopGuard(5);
  const loops: Loop[] = [];
  const [logic, inverted] = parameters('logic', 'inverted') as [OwnedParameter, OwnedParameter];
  // A logic function: it follows its input without the guard, as a connection does.
  logic.changes$.subscribe((v) => inverted.report(v === 0 ? 1 : 0));
  rule(guard, inverted, logic, (v) => v, loops);
  logic.set(1);
  t.deepEqual(loops, [new Loop(['c/logic', 'c/inverted', 'c/logic'], 5, false)]);
});

test('a change that comes after a wait starts a fresh chain', (t) => {
  const guard = new LoopGuard(1);
  for (let i = 0; i < 10; i++) {
    t.true(pass(guard, 'c/a'), 'a timed step emits outside any delivery');
    t.true(pass(guard, 'c/b'));
  }
});

test('loops that branch are cut once their cascade has come back 64 times the limit in all', (t) => {
  const guard = new LoopGuard(1000);
  const outer = guard.arrive('c/a');
  let cut: Loop | undefined;
  let returns = 0;
  // Each return below the per-chain limit, as the branches of a doubling loop are.
  for (; returns < 100_000 && !cut; returns++) {
    const entry = guard.enter('c/a');
    if (entry instanceof Loop) cut = entry;
    else guard.leave(entry);
  }
  t.deepEqual(cut, new Loop(['c/a', 'c/a'], 64_000, true));
  t.is(returns, 64_001);
  guard.leave(outer);
});
