import { execFileSync, spawnSync } from 'node:child_process';

/** True where promtool is installed (Debian's `prometheus` package; CI installs it). */
export const promtool = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoPromtool = promtool ? '' : ' (skipped: promtool is missing; apt-get install --no-install-recommends prometheus)';

/** What `promtool check metrics` says of the `patchbay_*` series of `text`: one line a problem, none when clean. */
export function promtoolSays(text: string): string[] {
  const checked = spawnSync(promtool ?? 'promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return `${checked.stdout}\n${checked.stderr}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('patchbay_'));
}

/** Base units, as Prometheus names them; the others are mistakes in a name. */
const notBaseUnits =
  /_(?:milliseconds|ms|microseconds|us|nanoseconds|ns|minutes|hours|days|kilobytes|kb|megabytes|mb|kib|mib|percent|celsius)(?:_|$)/;

/**
 * The rules promtool checks, for the `patchbay_*` families of a scrape in the text format
 * (0.0.4): a snake_case name with base units; one `# HELP` with text and one `# TYPE`
 * before the samples; counters, and only counters, end in `_total`; no series twice.
 */
export function formatMistakes(text: string): string[] {
  const mistakes: string[] = [];
  const families = new Map<string, { help?: string; type?: string; samples: number }>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) families.set(name, (found = { samples: 0 }));
    return found;
  };
  const seen = new Set<string>();
  if (text !== '' && !text.endsWith('\n')) mistakes.push('the text does not end with a line break');
  for (const line of text.split('\n')) {
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name = '', rest = ''] = meta;
      if (!name.startsWith('patchbay_')) continue;
      const entry = family(name);
      if (entry.samples > 0) mistakes.push(`${name}: ${kind} after its samples`);
      if (kind === 'HELP') {
        if (entry.help !== undefined) mistakes.push(`${name}: two HELP lines`);
        if (rest.trim() === '') mistakes.push(`${name}: no help text`);
        entry.help = rest;
      } else {
        if (entry.type !== undefined) mistakes.push(`${name}: two TYPE lines`);
        entry.type = rest;
      }
      continue;
    }
    const sample = /^(patchbay_[^\s{]*)(\{.*\})? (\S+)$/.exec(line);
    if (!sample) continue;
    const [, name = '', labels = '', value = ''] = sample;
    family(name).samples++;
    if (Number.isNaN(Number(value)) && !['NaN', '+Inf', '-Inf'].includes(value)) mistakes.push(`${name}: value ${value} is no number`);
    const pairs = [...labels.matchAll(/([^{=,]+)="((?:[^"\\]|\\.)*)"/g)].map(([, key = '', v = '']) => [key, v] as const);
    for (const [key] of pairs) if (!/^[a-z_][a-z0-9_]*$/.test(key)) mistakes.push(`${name}: label name ${key} is not snake_case`);
    const series = `${name}{${pairs
      .map(([key, v]) => `${key}=${v}`)
      .sort()
      .join(',')}}`;
    if (seen.has(series)) mistakes.push(`${series}: served twice`);
    seen.add(series);
  }
  for (const [name, { help, type }] of families) {
    if (!/^patchbay_[a-z][a-z0-9_]*$/.test(name)) mistakes.push(`${name}: not a snake_case name`);
    if (notBaseUnits.test(name)) mistakes.push(`${name}: use base units (seconds, bytes, ratios)`);
    if (help === undefined) mistakes.push(`${name}: no HELP line`);
    if (type === undefined) mistakes.push(`${name}: no TYPE line`);
    else if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type)) mistakes.push(`${name}: unknown type ${type}`);
    if (type === 'counter' && !name.endsWith('_total')) mistakes.push(`${name}: a counter's name ends in _total`);
    if (type !== undefined && type !== 'counter' && name.endsWith('_total')) mistakes.push(`${name}: only a counter's name ends in _total`);
  }
  return mistakes;
}
