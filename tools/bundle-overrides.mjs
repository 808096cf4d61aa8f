// Runs before `npm pack` (prepack): each bundled dependency's package.json names, in place of a
// dependency this package overrides, the override itself. npm applies `overrides` only in the
// project that declares them, so a studio folder that installed the package read
// emberplus-connection's own `"asn1": "evs-broadcast/node-asn1"` at its next `npm install`
// and failed wherever github.com is out of reach, though the bundle holds the override's
// package already.
import { readFileSync, writeFileSync } from 'node:fs';

const own = JSON.parse(readFileSync('package.json', 'utf8'));
const overrides = own.overrides ?? {};
for (const name of own.bundleDependencies ?? []) {
  const path = `node_modules/${name}/package.json`;
  const bundled = JSON.parse(readFileSync(path, 'utf8'));
  let changed = false;
  for (const field of ['dependencies', 'optionalDependencies']) {
    for (const dependency of Object.keys(bundled[field] ?? {})) {
      const override = overrides[dependency];
      if (typeof override !== 'string' || bundled[field][dependency] === override) continue;
      bundled[field][dependency] = override;
      changed = true;
    }
  }
  if (changed) writeFileSync(path, `${JSON.stringify(bundled, null, 2)}\n`);
}
