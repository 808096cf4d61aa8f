import test from 'ava';
import type { Reading } from '../../../lib/connections/serving.ts';
import type { IndexNode } from '../../../lib/connections/osc/namespace-index.ts';
import { NamespaceText } from '../../../lib/connections/osc/namespace-text.ts';
import { parseOscQueryCommand } from '../../../lib/connections/osc/oscquery-command.ts';

/** A tree of `addresses` as the index keeps it, each leaf's reading its address alone. */
function treeOf(addresses: readonly string[]): IndexNode {
  const root: IndexNode = { children: undefined, reading: undefined, count: 0 };
  for (const address of addresses) {
    let node = root;
    for (const segment of address.split('/')) {
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (!child) node.children.set(segment, (child = { children: undefined, reading: undefined, count: 0 }));
      node = child;
    }
    node.reading = { address } as Reading;
  }
  return root;
}

const describe = (node: IndexNode) => (node.reading ? { TYPE: 'i', VALUE: [node.reading.address] } : undefined);

/** The whole text, written `budget` nodes a piece, with `between` run after each piece. */
function written(text: NamespaceText, budget: number, between: (piece: number) => void = () => {}): string {
  let all = '';
  for (let piece = 0; !text.done; piece++) {
    all += text.next(budget);
    between(piece);
  }
  return all;
}

const addresses = ['studio/level', 'studio/title', 'studio/mic/1/open', 'studio/mic/2/open', 'lights/a', 'lights/b'];

test('a namespace written in pieces of any size is the JSON of the one written at once', (t) => {
  const whole = JSON.parse(written(new NamespaceText(treeOf(addresses), '/', describe), Number.POSITIVE_INFINITY));
  t.like(whole, {
    FULL_PATH: '/',
    CONTENTS: {
      studio: {
        FULL_PATH: '/studio',
        CONTENTS: { mic: { CONTENTS: { 2: { CONTENTS: { open: { FULL_PATH: '/studio/mic/2/open', VALUE: ['studio/mic/2/open'] } } } } } },
      },
    },
  });
  for (const budget of [1, 2, 3, 5, 8])
    t.deepEqual(JSON.parse(written(new NamespaceText(treeOf(addresses), '/', describe), budget)), whole, `${budget} a piece`);
  const studio = treeOf(addresses).children?.get('studio') as IndexNode;
  t.deepEqual(Object.keys(JSON.parse(written(new NamespaceText(studio, '/studio', describe, true), 2))), ['CONTENTS'], '?CONTENTS');
});

test('a tree that changes between pieces still makes valid JSON: a child added is met, one removed is not', (t) => {
  const root = treeOf(addresses);
  const text = written(new NamespaceText(root, '/', describe), 2, (piece) => {
    if (piece !== 1) return;
    root.children?.get('lights')?.children?.delete('b');
    root.children?.get('lights')?.children?.set('c', { children: undefined, reading: { address: 'lights/c' } as Reading, count: 1 });
    root.children?.delete('studio');
  });
  const parsed = JSON.parse(text) as { CONTENTS: Record<string, { CONTENTS: Record<string, unknown> }> };
  t.deepEqual(Object.keys(parsed.CONTENTS.lights?.CONTENTS ?? {}), ['a', 'c']);
});

test('a WebSocket text is a LISTEN or IGNORE with a path, or a reason: never a throw', (t) => {
  t.deepEqual(parseOscQueryCommand('{"COMMAND":"LISTEN","DATA":"/studio/level"}'), { command: 'LISTEN', path: '/studio/level' });
  t.deepEqual(parseOscQueryCommand('{"COMMAND":"IGNORE","DATA":"/a"}'), { command: 'IGNORE', path: '/a' });
  for (const text of [
    'null',
    '1',
    '"x"',
    '[]',
    'true',
    '{',
    '',
    '{"COMMAND":"LISTEN"}',
    '{"COMMAND":"LISTEN","DATA":7}',
    '{"COMMAND":"PATH_CHANGED","DATA":"/a"}',
    '{"DATA":"/a"}',
  ])
    t.true('reason' in parseOscQueryCommand(text), text);
});
