/**
 * emberplus-connection names its `asn1` dependency by a git repository, which installs from
 * GitHub alone; the `overrides` entry of package.json puts the same code from the npm
 * registry instead. These specs fail when the override stops applying (a new version of the
 * library, an edited lock file), before an install somewhere without GitHub does.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import test from 'ava';

const root = new URL('../../', import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const require = createRequire(new URL('package.json', root));

test('package.json pins emberplus-connection exactly and overrides its asn1 with gdnet-asn1 1.0.0 from the registry', (t) => {
  const manifest = read('package.json');
  t.regex(manifest.dependencies['emberplus-connection'], /^\d+\.\d+\.\d+$/);
  t.is(manifest.overrides.asn1, 'npm:gdnet-asn1@1.0.0');
});

test('the lock file installs asn1 from the npm registry, never from a git repository', (t) => {
  const lock = read('package-lock.json');
  const asn1 = lock.packages['node_modules/asn1'];
  t.is(asn1?.name, 'gdnet-asn1');
  t.is(asn1?.version, '1.0.0');
  t.truthy(asn1?.integrity, 'a registry package, with its integrity');
  // The lock file may leave `resolved` out (npm's omit-lockfile-registry-resolved): then it is the registry's.
  t.regex(asn1?.resolved ?? 'https://registry.npmjs.org/', /^https:\/\/registry\.npmjs\.org\//);
  const gitSources = Object.entries(lock.packages as Record<string, { resolved?: string }>)
    .filter(([, entry]) => /^git|github\.com|^git\+/.test(entry.resolved ?? ''))
    .map(([path]) => path);
  t.deepEqual(gitSources, []);
});

test('the asn1 that emberplus-connection loads is gdnet-asn1 1.0.0, and its BER coding round-trips', (t) => {
  const fromLibrary = createRequire(require.resolve('emberplus-connection'));
  const installed = JSON.parse(readFileSync(fromLibrary.resolve('asn1/package.json'), 'utf8'));
  t.is(`${installed.name}@${installed.version}`, 'gdnet-asn1@1.0.0');
  const { berEncode, berDecode, Model, Types } = require('emberplus-connection');
  const element = new Model.QualifiedElementImpl('1.2', new Model.ParameterImpl(Model.ParameterType.Real, 'level', undefined, 0.25));
  const decoded = berDecode(berEncode([element], Types.RootType.Elements)).value;
  t.is(decoded[0].contents.value, 0.25);
  t.is(decoded[0].path, '1.2');
});
