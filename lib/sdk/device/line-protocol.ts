/**
 * What the line-protocol types (R-N1, R-N2) share, whatever carries their bytes (a TCP
 * connection, datagrams, a serial port), read from their shared settings once: how frames
 * look and what they mean.
 *
 * Frames are text in the connection's `encoding`. Each received frame is
 * tried against the `receive` patterns in order (RE2, as every user expression in the hub);
 * the first that matches sets the parameters its `set` names, with `$name` standing for the
 * pattern's named group (for each match of its `each` pattern, when it has one: the lines of
 * a block). A frame no pattern matches is counted and logged at debug level.
 * A write sends the frame of its parameter's `send` entry, `$VALUE` standing for the value
 * (and `$1` for the number of a range the entry's parameter has, `out/{0..39}`, and `$TOKEN`
 * for the fencing token the write goes out under: the epoch of the redundancy group's lease,
 * on etcd the election's revision, 0 outside a group — for a device that checks it, R-EG2),
 * and is answered once the transport took it (devices of this kind confirm nothing); its
 * value is then the parameter's, as the device says nothing back (R-G1). Nothing is sent at
 * start, restored values included (R-G3); polls run while the link is up.
 */
import type { Checked, Issue } from '../../core/issue.ts';
import { compileRegex, type GroupPattern, regexLimits } from '../../core/regex.ts';
import { checked } from '../settings.ts';
import { bytesOf, type Encoding, type Framing, type FramingOptions, notHex, wireFrame } from './framing.ts';
import { describeLines, type ParameterLines, parseParameterLines } from '../parameter-lines.ts';
import { expandRanges, fillRangeNumbers, hasRange, MAX_RANGE_NAMES, unknownRangeReference } from '../ranges.ts';
import { DEFAULT_DELIMITER, type LineSettingsWritten } from './line-settings.ts';
import { type Filled, filledOf, type Template, templateOf } from './line-templates.ts';

export interface LineProtocol extends FramingOptions {
  readonly parameters: ParameterLines;
  readonly receivers: readonly {
    readonly pattern: GroupPattern;
    /** Applies `set` once for each of its matches; its groups come before those of `pattern`. */
    readonly each?: GroupPattern;
    readonly set: readonly { readonly id: Filled; readonly value: Filled }[];
  }[];
  /** The send entry of each parameter that takes writes. */
  readonly sends: ReadonlyMap<string, { readonly frame: Template; readonly values: Readonly<Record<string, string>> }>;
  readonly polls: readonly { readonly frame: Buffer; readonly every: number }[];
  readonly maxFramesPerSecond: number;
  readonly timeout: number;
}

/** Reads the shared settings: every mistake with its path, relative to the connection. */
export function parseLineProtocol(settings: LineSettingsWritten): Checked<LineProtocol> {
  const issues: Issue[] = [];
  const lines = parseParameterLines(settings.parameters);
  const parameters = lines.ok ? describeLines(lines.value, settings.describe) : lines;
  if (!parameters.ok) issues.push(...parameters.issues);
  const table = parameters.ok ? parameters.value : undefined;
  const known = (id: string) => table === undefined || table.ids.indexOf(id) >= 0;
  const typeOf = (id: string) => table?.rows[table.ids.indexOf(id)]?.type;

  const framings = (['delimiter', 'length', 'lengthPrefix'] as const).filter((key) => settings[key] !== undefined);
  if (framings.length > 1)
    issues.push({
      path: [framings[1] as string],
      message: `give one of delimiter, length and lengthPrefix, not ${framings.join(' and ')}`,
    });
  const { encoding } = settings;
  const delimiterText = settings.delimiter ?? DEFAULT_DELIMITER;
  if (encoding === 'hex' && settings.delimiter !== undefined) {
    const problem =
      notHex(settings.delimiter) ??
      (bytesOf(settings.delimiter, 'hex').length === 0 ? `${JSON.stringify(settings.delimiter)} holds no hex digits` : undefined);
    if (problem)
      issues.push({ path: ['delimiter'], message: `${problem}: with encoding "hex" the delimiter is written in hex ("0d0a" for CR LF)` });
  }
  const framing: Framing =
    settings.length !== undefined
      ? { kind: 'length', length: settings.length }
      : settings.lengthPrefix !== undefined
        ? { kind: 'lengthPrefix', prefixBytes: settings.lengthPrefix }
        : {
            kind: 'delimiter',
            delimiter: delimiterBytes(delimiterText, encoding),
          };

  const receivers: LineProtocol['receivers'][number][] = [];
  settings.receive.forEach((entry, index) => {
    const compile = (key: 'match' | 'each', source: string) => {
      // Hex frames are lowercase digits; a pattern written in capitals should find them all the same.
      const compiled = compileRegex(encoding === 'hex' ? `(?i)${source}` : source);
      if (!compiled.ok) issues.push({ path: ['receive', index, key], message: patternMistake(compiled.error.message, source) });
      return compiled.ok ? compiled.value : undefined;
    };
    const pattern = compile('match', entry.match);
    const each = entry.each === undefined ? undefined : compile('each', entry.each);
    if (!pattern || (entry.each !== undefined && !each)) return;
    const names = [...(each?.names ?? []), ...pattern.names];
    const groups = new Set(names);
    const set = Object.entries(entry.set).map(([id, value]) => ({ id: templateOf(id), value: templateOf(value) }));
    for (const [position, { id, value }] of set.entries()) {
      const key = Object.keys(entry.set)[position] as string;
      for (const name of [...id.names, ...value.names])
        if (!groups.has(name))
          issues.push({
            path: ['receive', index, 'set', key],
            message: `$${name} is not a named group of the pattern (${[...groups].map((g) => `$${g}`).join(', ') || 'it has none'})`,
          });
      if (id.names.length === 0 && hasRange(key))
        issues.push({
          path: ['receive', index, 'set', key],
          message: `a received frame names its parameter with a named group ("out/$dst"), not a range`,
        });
      else if (id.names.length === 0 && !known(key))
        issues.push({ path: ['receive', index, 'set', key], message: `no parameter "${key}" in parameters` });
    }
    receivers.push({
      pattern,
      ...(each ? { each } : {}),
      set: set.map(({ id, value }) => ({ id: filledOf(id, names), value: filledOf(value, names) })),
    });
  });

  const sends = new Map<string, { frame: Template; values: Readonly<Record<string, string>> }>();
  let rangeNamesLeft = MAX_RANGE_NAMES;
  settings.send.forEach((entry, index) => {
    const names = expandRanges(entry.parameter, rangeNamesLeft);
    if (typeof names === 'string') return void issues.push({ path: ['send', index, 'parameter'], message: names });
    rangeNamesLeft -= names.length;
    const unknown = names.filter(({ text }) => !known(text)).map(({ text }) => text);
    if (unknown.length > 0)
      issues.push({ path: ['send', index, 'parameter'], message: `no parameter "${unknown[0]}" in parameters${more(unknown)}` });
    const repeated = names.filter(({ text }) => sends.has(text)).map(({ text }) => text);
    if (repeated.length > 0)
      issues.push({ path: ['send', index, 'parameter'], message: `"${repeated[0]}" has a send entry already${more(repeated)}` });
    // Without a range a `$1` is the text it always was; with one it is the range's number.
    const ranges = names[0]?.numbers.length ?? 0;
    const beyond = ranges > 0 ? unknownRangeReference(entry.frame, ranges) : undefined;
    if (beyond)
      return void issues.push({
        path: ['send', index, 'frame'],
        message: `${beyond} is no range of "${entry.parameter}", which has ${ranges === 1 ? 'one ($1)' : `${ranges} ($1 to $${ranges})`}`,
      });
    const frames = names.map(({ text, numbers }) => ({ id: text, frame: templateOf(fillRangeNumbers(entry.frame, numbers)) }));
    const first = frames[0];
    const frame = first?.frame ?? templateOf(entry.frame);
    const notValue = frame.names.filter((name) => name !== 'VALUE' && name !== 'TOKEN');
    if (notValue.length > 0)
      issues.push({
        path: ['send', index, 'frame'],
        message: `$${notValue[0]} is not known here: a frame may hold $VALUE, $TOKEN, $1 for the number of a range in its parameter (and $$ for a dollar sign)`,
      });
    if (typeOf(first?.id ?? '') === 'T' && frame.names.includes('VALUE'))
      issues.push({ path: ['send', index, 'frame'], message: `"${first?.id}" is a trigger, which has no value for $VALUE` });
    if (encoding === 'hex') {
      const literal = notHex(frame.parts.join(''));
      if (literal) issues.push({ path: ['send', index, 'frame'], message: literal });
      for (const [text, replacement] of Object.entries(entry.values ?? {})) {
        const problem = notHex(replacement);
        if (problem) issues.push({ path: ['send', index, 'values', text], message: problem });
      }
    }
    for (const { id, frame } of frames) sends.set(id, { frame, values: entry.values ?? {} });
  });

  const options: FramingOptions = { framing, encoding, maxFrameBytes: settings.maxFrameBytes };
  const polls = settings.poll.map((entry, index) => {
    if (encoding === 'hex' && notHex(entry.frame)) issues.push({ path: ['poll', index, 'frame'], message: notHex(entry.frame) as string });
    return { frame: encoding === 'hex' && notHex(entry.frame) ? Buffer.alloc(0) : wireFrame(entry.frame, options), every: entry.every };
  });
  return checked(issues, {
    ...options,
    parameters: table as ParameterLines,
    receivers,
    sends,
    polls,
    maxFramesPerSecond: settings.maxFramesPerSecond,
    timeout: settings.timeout,
  });
}

/**
 * What is wrong with a receive pattern; past the bounds every user expression has (R-H9),
 * with how a line protocol stays within them.
 */
function patternMistake(message: string, source: string): string {
  const tooLarge = source.length > regexLimits.maxLength || message.includes('instructions');
  return tooLarge
    ? `${message}. A pattern matches one thing: name the parameter with a named group ("dest/$dst") rather than a group for each, and read a block of many lines with \`each\` (one line's pattern, applied to every line)`
    : message;
}

/** ` (and 3 more)` after the first of several names that share a mistake. */
function more(names: readonly string[]): string {
  return names.length > 1 ? ` (and ${names.length - 1} more)` : '';
}

/** The delimiter's bytes; a hex one that is not hex (a mistake `parseLineProtocol` names) stands in as CR LF. */
function delimiterBytes(text: string, encoding: Encoding): Buffer {
  if (encoding !== 'hex') return bytesOf(text, encoding);
  const bytes = notHex(text) ? Buffer.alloc(0) : bytesOf(text, 'hex');
  return bytes.length > 0 ? bytes : Buffer.from('\r\n');
}
