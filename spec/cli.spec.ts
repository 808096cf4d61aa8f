import { join, resolve } from 'node:path';
import test from 'ava';
import { stateFolderOf } from '../lib/cli.ts';

test('the state folder is .patchbay beside the flow file, --state moves it, none keeps nothing (R-S1)', (t) => {
  const flow = '/srv/studio/flow.json5';
  t.is(stateFolderOf(flow, undefined), '/srv/studio/.patchbay');
  t.is(stateFolderOf(flow, 'state'), resolve('state'));
  t.is(stateFolderOf(flow, 'none'), undefined);
});

test('a flow file inside node_modules (the packaged demo) keeps its state in the working folder, not in the package', (t) => {
  const flow = '/home/me/show/node_modules/patchbay-hub/flows/demo.json5';
  t.is(stateFolderOf(flow, undefined), join(process.cwd(), '.patchbay'));
  t.is(stateFolderOf(flow, '/var/lib/patchbay'), '/var/lib/patchbay');
});
