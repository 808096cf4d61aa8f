import test from 'ava';
import { Candidate } from '../../lib/site/vote/candidate.ts';
import { ASK_EVERY_MS } from '../../lib/site/vote/voter.ts';
import { LEASE_MS, Voter } from '../../lib/site/vote/voter.ts';

/** Three voters in one clock, answering at once: hub `b`'s candidate, and what each voter promised. */
function group() {
  let now = 0;
  const voters = {
    a: new Voter('a', undefined, -LEASE_MS),
    b: new Voter('b', undefined, -LEASE_MS),
    w: new Voter('w', undefined, -LEASE_MS),
  };
  const asked: number[] = [];
  const b: Candidate = new Candidate(
    'b',
    ['a', 'b', 'w'],
    (voter, request) => {
      if (!request.probe && voter === 'b') asked.push(request.epoch);
      b.answered(voter, request.n, voters[voter as keyof typeof voters].ask(request, now), now);
    },
    { members: ['a', 'b'], random: () => 0 },
  );
  return { voters, b, asked, at: (ms: number) => (now = ms), now: () => now };
}

test('a claim refused because its epoch is promised to another hub is not made again: the next claim asks for one more', (t) => {
  const { voters, b, asked, at } = group();
  // Hub a took epoch 1 at a's and the witness's votes while hub b, starting, claimed it too.
  voters.a.ask({ candidate: 'a', epoch: 1 }, 0);
  voters.w.ask({ candidate: 'a', epoch: 1 }, 0);
  b.claim(at(0));
  t.deepEqual(asked, [1]);
  t.is(b.lease(0), undefined, 'only its own vote: no majority');
  // Hub a goes; its grants run out; b claims when no voter names a holder, and asks for epoch 2.
  let ms = 0;
  while (b.lease(ms) === undefined && ms < 4000) b.tick(at((ms += ASK_EVERY_MS)));
  t.is(b.lease(ms)?.epoch, 2, `b holds epoch 2 after a went: it asked for ${asked.join(', ')}`);
});
