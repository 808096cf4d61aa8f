import test from 'ava';
import { mapStrings, relativePaths } from '../../lib/core/paths.ts';

const rewrite = relativePaths('/home/ann/My Shows', ['home', 'srv', 'tmp']);

test('paths in the folder become relative to it, spaces in the folder included', (t) => {
  t.is(rewrite('cannot write /home/ann/My Shows/out/now.xml: ENOENT'), 'cannot write out/now.xml: ENOENT');
  t.is(rewrite("open '/home/ann/My Shows/out/.now.xml.12.tmp'"), "open 'out/.now.xml.12.tmp'");
  t.is(rewrite('documentRoot /home/ann/My Shows does not exist'), 'documentRoot . does not exist');
  t.is(rewrite('file:///home/ann/My%20Shows/flows/a.ts:3:7'), 'flows/a.ts:3:7');
});

test('other absolute paths become relative too; HTTP paths and URLs stay', (t) => {
  t.is(rewrite('documentRoot /srv/www (missing), state in /tmp/x;'), 'documentRoot ../../../srv/www (missing), state in ../../../tmp/x;');
  t.is(rewrite('/home/ann/My Showsandmore/x'), '../My Showsandmore/x', 'a folder of a similar name is not the folder');
  t.is(
    rewrite('GET /parameters/a/b at http://127.0.0.1:17011/home, a/b, 1/2'),
    'GET /parameters/a/b at http://127.0.0.1:17011/home, a/b, 1/2',
  );
});

test('mapStrings rewrites every string of a JSON-like value', (t) => {
  t.deepEqual(mapStrings({ a: ['/srv/x', 1, null, { b: '/home/ann/My Shows/y' }] }, rewrite), {
    a: ['../../../srv/x', 1, null, { b: 'y' }],
  });
});

test('a path the hub opens as the flow file writes it stays whole, in the folder or out of it; others next to it do not', (t) => {
  const keeping = relativePaths('/home/ann/My Shows', ['home', 'srv', 'tmp'], ['/tmp/gpio-hub', '/home/ann/My Shows/ports/box']);
  t.is(keeping('/tmp/gpio-hub: cannot open /tmp/gpio-hub'), '/tmp/gpio-hub: cannot open /tmp/gpio-hub');
  t.is(keeping('/home/ann/My Shows/ports/box closed'), '/home/ann/My Shows/ports/box closed');
  t.is(keeping('/tmp/gpio-hub2 and /tmp/gpio-hub/x'), '../../../tmp/gpio-hub2 and ../../../tmp/gpio-hub/x');
});
