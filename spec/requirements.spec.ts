import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const root = fileURLToPath(new URL('../', import.meta.url));
const requirementsFile = join(root, 'spec/requirements.md');

/** An id as the repository cites it: a group of capitals, and a number unless it names a whole group (`R-C`). */
const idPattern = /\bR-[A-Z]+[0-9]*\b/g;

/**
 * The ids spec/requirements.md defines, each with how often: one per entry
 * (`- **R-P1** …`) and the group ids a heading names (`### Conversion (R-C)`).
 */
async function definedIds(): Promise<Map<string, number>> {
  const text = await readFile(requirementsFile, 'utf8');
  const defined = new Map<string, number>();
  const add = (id: string) => defined.set(id, (defined.get(id) ?? 0) + 1);
  for (const [, id] of text.matchAll(/^- \*\*(R-[A-Z]+[0-9]*)\*\* \S/gm)) add(id!);
  for (const [, labels] of text.matchAll(/^#+ .*\(([^)]*)\)$/gm)) for (const [id] of labels!.matchAll(idPattern)) add(id);
  return defined;
}

interface Citation {
  readonly id: string;
  readonly where: string;
}

/** Every id cited in the code, specs, benchmarks, flows, README and docs, with file and line. */
async function citations(): Promise<{ ids: Citation[]; ranges: { from: string; to: string; where: string }[] }> {
  const files = [join(root, 'README.md')];
  for (const dir of ['lib', 'spec', 'bench', 'flows', 'docs']) {
    for (const entry of await readdir(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
    }
  }
  const ids: Citation[] = [];
  const ranges: { from: string; to: string; where: string }[] = [];
  for (const file of files) {
    if (file === requirementsFile) continue;
    const text = await readFile(file, 'utf8');
    if (text.includes('\0')) continue;
    text.split('\n').forEach((line, index) => {
      const where = `${relative(root, file)}:${index + 1}`;
      for (const [id] of line.matchAll(idPattern)) ids.push({ id, where });
      for (const [, from, to] of line.matchAll(/\b(R-[A-Z]+[0-9]+)\s*[–—-]\s*(R-[A-Z]+[0-9]+)\b/g))
        ranges.push({ from: from!, to: to!, where });
    });
  }
  return { ids, ranges };
}

test('every requirement in spec/requirements.md is listed once', async (t) => {
  const defined = await definedIds();
  t.true(defined.size > 70, 'the list holds both parts of the contract');
  t.deepEqual(
    [...defined].filter(([, count]) => count > 1).map(([id]) => id),
    [],
  );
});

test('every requirement id cited in the code, specs, benchmarks, flows, README and docs is listed in spec/requirements.md', async (t) => {
  const defined = await definedIds();
  const { ids } = await citations();
  t.true(ids.length > 100, 'the citations were found');
  t.deepEqual(
    ids.filter(({ id }) => !defined.has(id)).map(({ id, where }) => `${where} ${id}`),
    [],
  );
});

test('a cited range of requirements runs forward within one group, and every id in it is listed', async (t) => {
  const defined = await definedIds();
  const { ranges } = await citations();
  t.true(ranges.length > 5, 'the ranges were found');
  const split = (id: string) => {
    const [, group, number] = /^R-([A-Z]+)([0-9]+)$/.exec(id) ?? [];
    return { group: group ?? '', number: Number(number) };
  };
  const wrong: string[] = [];
  for (const { from, to, where } of ranges) {
    const start = split(from);
    const end = split(to);
    if (start.group !== end.group || start.number >= end.number) {
      wrong.push(`${where} ${from}–${to}: not a range within one group`);
      continue;
    }
    for (let n = start.number; n <= end.number; n++) {
      if (!defined.has(`R-${start.group}${n}`)) wrong.push(`${where} ${from}–${to}: R-${start.group}${n} is not listed`);
    }
  }
  t.deepEqual(wrong, []);
});
