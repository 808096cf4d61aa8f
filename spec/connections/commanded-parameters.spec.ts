/**
 * `CommandedParameters` (R-PK7's link, on the public face): what the ATEM and OBS packages
 * make their parameters with — each defined once and kept across reconnects, a write a
 * command of the library through the link, refused while the device is away.
 */
import test from 'ava';
import { checkParameterId } from '../../lib/core/address.ts';
import { unfenced } from '../../lib/core/lease.ts';
import { createParameter, type ParameterSpec, type SetResult } from '../../lib/core/parameter.ts';
import { ClientLink } from '../../lib/sdk/device/client-link.ts';
import { CommandedParameters } from '../../lib/sdk/device/commanded-parameters.ts';
import type { LinkAttempt } from '../../lib/sdk/device/device-link.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

function device() {
  const clock = new VirtualClock();
  let events: LinkAttempt | undefined;
  const link = new ClientLink(
    { start: (given) => void (events = given), close: () => {} },
    { scheduler: clock.scheduler, status: () => {}, fence: unfenced, timeoutMs: 500, connectTimeoutMs: 1000 },
  );
  const defined: string[] = [];
  const problems = new Map<string, string>();
  const parameters = new CommandedParameters(
    {
      define: (id: string, spec: ParameterSpec) => {
        const checked = checkParameterId(id);
        if (!checked.ok) throw checked.error;
        defined.push(id);
        return createParameter('mixer', id, spec);
      },
      problem: (part: string, problem: { code: string; message: string } | undefined) =>
        problem ? problems.set(part, `${problem.code} ${problem.message}`) : problems.delete(part),
    },
    link,
  );
  void link.start();
  return { clock, link, parameters, defined, problems, events: () => events as LinkAttempt };
}

function answer(write: (answered: (result: SetResult) => void) => void): Promise<SetResult> {
  return new Promise((resolve) => write(resolve));
}

test('a parameter is defined once, the first time it is asked for, and kept across reconnects; its write runs the last command given (R-PK7)', async (t) => {
  const { parameters, defined, events } = device();
  events().up();
  const sent: string[] = [];
  const program = parameters.commanded('me/1/program', { type: 'I' }, async (v) => void sent.push(`first ${v}`));
  events().down('the switcher stopped answering');
  events().up();
  const again = parameters.commanded('me/1/program', { type: 'I' }, async (v) => void sent.push(`after the reconnect ${v}`));
  t.is(again, program, 'the same parameter: rules that follow it never see it go');
  t.deepEqual(defined, ['me/1/program']);
  const result = await answer((answered) => program.set(3, undefined, answered));
  t.true(result.ok);
  t.deepEqual(sent, ['after the reconnect 3']);
});

test('a write while the device is away is refused, not sent; a refusal of the library answers the write (R-PK7)', async (t) => {
  const { parameters, events } = device();
  const sent: number[] = [];
  const rate = parameters.commanded('me/1/transition/rate', { type: 'I' }, async (v) => {
    sent.push(Number(v));
    if (Number(v) > 250) throw new Error('out of range');
  });
  events().down('cannot reach the switcher');
  const away = rate.set(25);
  t.false(away.ok);
  t.is(away.ok ? undefined : away.error.code, 'PB_DEVICE_UNAVAILABLE');
  t.deepEqual(sent, []);
  events().up();
  const refused = await answer((answered) => rate.set(300, undefined, answered));
  t.false(refused.ok);
  t.regex(refused.ok ? '' : refused.error.message, /out of range/);
});

test('a trigger runs its command, and says its label again when the device renamed the thing; choices are offered to the parameters named (R-PK6)', async (t) => {
  const { parameters, events } = device();
  events().up();
  let runs = 0;
  const run = parameters.trigger('macro/1/run', { label: 'Macro 1: Open' }, async () => void runs++);
  parameters.trigger('macro/1/run', { label: 'Macro 1: Opening titles' }, async () => void runs++);
  t.is(run.meta?.label, 'Macro 1: Opening titles');
  t.true((await answer((answered) => run.set(true, undefined, answered))).ok);
  t.is(runs, 1);

  parameters.commanded('aux/1/source', { type: 'I' }, async () => {});
  parameters.readOnly('device/model', { type: 'S' });
  parameters.offer(/\/source$/, [{ value: 1, label: '1: Camera 1' }]);
  t.deepEqual(parameters.get('aux/1/source')?.meta?.choices, [{ value: 1, label: '1: Camera 1' }]);
  t.is(parameters.get('device/model')?.meta?.choices, undefined);
  t.false(parameters.get('device/model')?.set('x').ok, 'read-only');
});

test('choices offered reach the parameters defined later too, the latest offer of a pattern winning; what the hub refuses of a device is a problem, not the end of its read (R-PK6, R-PK7)', (t) => {
  const { parameters, problems, events } = device();
  events().up();
  parameters.offer(/^aux\/\d+\/source$/, [{ value: 1, label: '1: Camera 1' }]);
  parameters.offer(/^aux\/\d+\/source$/, [
    { value: 1, label: '1: Camera 1' },
    { value: 2, label: '2: Camera 2' },
  ]);
  const later = parameters.commanded('aux/2/source', { type: 'I' }, async () => {});
  t.deepEqual(
    later.meta?.choices?.map((choice) => choice.label),
    ['1: Camera 1', '2: Camera 2'],
    'an aux the switcher said after its inputs',
  );

  // A device's names read as choices of an integer: refused, said, and the rest goes on.
  parameters.offer(/^me\/\d+\/program$/, [{ value: 'Camera 1', label: 'Camera 1' }]);
  const program = parameters.commanded('me/1/program', { type: 'I' }, async () => {});
  const preview = parameters.commanded('me/1/preview', { type: 'I' }, async () => {});
  t.is(program.meta?.choices, undefined, 'made without what was refused');
  t.regex(problems.get('parameter me/1/program') ?? '', /^PB_CONVERSION me\/1\/program: /);
  t.is(preview.id, 'me/1/preview');
  t.false(problems.has('parameter me/1/preview'));

  // An offer that does not convert for one already made: a problem, the others described.
  parameters.offer(/\/source$/, [{ value: 'one', label: 'One' }]);
  t.regex(problems.get('parameter aux/2/source') ?? '', /^PB_CONVERSION /);
  parameters.offer(/\/source$/, [{ value: 4, label: '4: Camera 4' }]);
  t.false(problems.has('parameter aux/2/source'), 'said no more once an offer converts');
  t.deepEqual(later.meta?.choices, [{ value: 4, label: '4: Camera 4' }]);

  // An id the hub refuses is said, then thrown to the package.
  t.throws(() => parameters.readOnly('input/Camera 1/name', { type: 'S' }), { message: /is not a parameter id/ });
  t.regex(problems.get('parameter input/Camera 1/name') ?? '', /^PB_BAD_ADDRESS /);
});

test('an order is write-only and sends each value; a value `refuse` names is refused before anything is sent (R-PK7)', async (t) => {
  const { parameters, events } = device();
  events().up();
  const sent: number[] = [];
  const skip = parameters.order('transport/skip', { type: 'I' }, async (v) => void sent.push(Number(v)), {
    refuse: (v) => (v === 0 ? 'skip 0 clips is no skip' : undefined),
  });
  t.is(skip.access, 'write-only');
  const refused = skip.set(0);
  t.false(refused.ok);
  t.is(refused.ok ? '' : `${refused.error.code} ${refused.error.message}`, 'PB_CONVERSION transport/skip: skip 0 clips is no skip');
  t.true((await answer((answered) => skip.set(-2, undefined, answered))).ok);
  t.deepEqual(sent, [-2]);
});
