/**
 * What the line-protocol types (R-N1, R-N2) share, whatever carries their bytes (a TCP
 * connection, datagrams, a serial port): the settings that say how frames look and what
 * they mean, and the device that turns received frames into parameter values, accepted
 * writes into frames, and sends the poll frames. A type supplies only its transport.
 *
 * Frames are text in the connection's `encoding` (see `framing.ts`). Each received frame is
 * tried against the `receive` patterns in order (RE2, as every user expression in the hub);
 * the first that matches sets the parameters its `set` names, with `$name` standing for the
 * pattern's named group (for each match of its `each` pattern, when it has one: the lines of
 * a block). A frame no pattern matches is counted and logged at debug level.
 * A write sends the frame of its parameter's `send` entry, `$VALUE` standing for the value
 * (and `$1` for the number of a range the entry's parameter has, `out/{0..39}`),
 * and is answered once the transport took it (devices of this kind confirm nothing); its
 * value is then the parameter's, as the device says nothing back (R-G1). Nothing is sent at
 * start, restored values included (R-G3); polls run while the link is up.
 */
import { type TObject, Type } from '@sinclair/typebox';
import type { Subscription } from 'rxjs';
import { HubError } from '../../core/errors.ts';
import type { ConnectionMetric } from '../../core/counts.ts';
import type { Checked, Issue } from '../../core/issue.ts';
import { Access } from '../../core/parameter.ts';
import { compileRegex, type GroupPattern, regexLimits } from '../../core/regex.ts';
import { changeClockOf, every } from '../../core/scheduler.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import type { Value } from '../../core/value.ts';
import type { ConnectionContext } from '../context.ts';
import { checked, type Parsed, withDefault } from '../settings.ts';
import { type Claim, type DeclaredParameter, type DefinedConnectionType, defineConnectionType, type Link } from '../type.ts';
import { DeviceLink, type LinkAttempt } from './device-link.ts';
import { DeviceParameters } from './device-parameters.ts';
import { bytesOf, type Encoding, type Framing, type FramingOptions, Framer, notHex, wireFrame } from './framing.ts';
import { Overruns } from './overruns.ts';
import { type ParameterLines, parseParameterLines } from '../parameter-lines.ts';
import { expandRanges, fillRangeNumbers, hasRange, MAX_RANGE_NAMES, unknownRangeReference } from '../ranges.ts';

export const DEFAULT_DELIMITER = '\r\n';

/** The settings every line-protocol type has, beside those of its transport. */
export const lineSettings = {
  parameters: withDefault(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description:
        "The device's parameters, one per line as a dummy has them: <parameter id>[,<type>[,<default value>]]; out/{0..39},I declares out/0 … out/39. A parameter that a `send` entry names takes writes; the others are read-only.",
    }),
    '',
  ),
  delimiter: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 16,
      description:
        'What ends each frame, in the connection\'s encoding (hex digits for hex). "\\r\\n" when neither `length` nor `lengthPrefix` is given.',
    }),
  ),
  length: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65_536, description: 'Frames of this many bytes each, in place of a delimiter.' }),
  ),
  lengthPrefix: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(4)], {
      description: 'Frames that begin with their length in this many bytes, big-endian, in place of a delimiter; sent frames get one.',
    }),
  ),
  encoding: withDefault(
    Type.Union([Type.Literal('utf8'), Type.Literal('latin1'), Type.Literal('hex')], {
      description: "How a frame's bytes read as text: what patterns match and frames are written in. hex: two digits a byte.",
    }),
    'utf8',
  ),
  maxFrameBytes: withDefault(
    Type.Integer({
      minimum: 16,
      maximum: 16 * 1024 * 1024,
      description: 'The largest frame taken (R-G4); larger ones are dropped and counted, and the connection is degraded for a minute.',
    }),
    65_536,
  ),
  maxFramesPerSecond: withDefault(
    Type.Integer({
      minimum: 1,
      description:
        'Frames handled in one second at most (R-G4); past it frames are dropped and counted, and the connection is degraded for a minute.',
    }),
    10_000,
  ),
  receive: withDefault(
    Type.Array(
      Type.Object(
        {
          match: Type.String({
            minLength: 1,
            description: 'An RE2 expression tried on each frame, unanchored: (?P<name>…) or (?<name>…) are named groups.',
          }),
          each: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'An RE2 expression tried on the whole frame once `match` matched it: `set` applies for each of its matches, with its named groups beside those of `match` (the lines of a block: "(?m)^(?P<dst>\\d+) (?P<src>\\d+)$").',
            }),
          ),
          set: Type.Record(Type.String(), Type.String(), {
            description:
              'Parameter id → value, when the frame matches; $name in either stands for the named group (an id with $name names the parameter by what the frame says). "" fires a trigger.',
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 256, description: 'What received frames mean: the first entry whose pattern matches a frame applies.' },
    ),
    [],
  ),
  send: withDefault(
    Type.Array(
      Type.Object(
        {
          parameter: Type.String({
            minLength: 1,
            description: 'The parameter whose accepted writes send this frame; with a range (out/{0..39}), each parameter of the range.',
          }),
          frame: Type.String({
            description:
              'The frame as written on the wire (with its delimiter: "VOL $VALUE\\r\\n"); $VALUE stands for the written value, $1 for the number of the parameter\'s first range ($2 the second\'s).',
          }),
          values: Type.Optional(
            Type.Record(Type.String(), Type.String(), {
              description: 'What $VALUE becomes for a value, by its text ("true": "ON"); values not listed are written as their text.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1024, description: 'What a write of a parameter sends.' },
    ),
    [],
  ),
  poll: withDefault(
    Type.Array(
      Type.Object(
        {
          frame: Type.String({ minLength: 1, description: 'The frame to send, as written on the wire.' }),
          every: Type.Integer({ minimum: 50, description: 'Milliseconds between sends, while the link is up.' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 64, description: 'Frames sent again and again, to ask the device for its state.' },
    ),
    [],
  ),
  timeout: withDefault(
    Type.Integer({ minimum: 1, maximum: 60_000, description: 'Milliseconds a write may wait for the transport to take it (R-G1).' }),
    2000,
  ),
};

/** The shared settings as the schema fills them in. */
export interface LineSettingsWritten {
  readonly parameters: string | readonly string[];
  readonly delimiter?: string;
  readonly length?: number;
  readonly lengthPrefix?: 1 | 2 | 4;
  readonly encoding: Encoding;
  readonly maxFrameBytes: number;
  readonly maxFramesPerSecond: number;
  readonly receive: readonly { readonly match: string; readonly each?: string; readonly set: Readonly<Record<string, string>> }[];
  readonly send: readonly { readonly parameter: string; readonly frame: string; readonly values?: Readonly<Record<string, string>> }[];
  readonly poll: readonly { readonly frame: string; readonly every: number }[];
  readonly timeout: number;
}

/** A `set` entry's id or value: fixed text, or text with groups (by their place in `GroupPattern.names`). */
type Filled = string | { readonly parts: readonly string[]; readonly groups: readonly number[] };

function filledOf(template: Template, names: readonly string[]): Filled {
  if (template.names.length === 0) return template.parts[0] as string;
  return { parts: template.parts, groups: template.names.map((name) => names.indexOf(name)) };
}

function fillGroups(filled: Filled, groups: readonly string[]): string {
  if (typeof filled === 'string') return filled;
  let text = filled.parts[0] as string;
  for (let i = 0; i < filled.groups.length; i++) text += (groups[filled.groups[i] as number] ?? '') + filled.parts[i + 1];
  return text;
}

/** Text with `$name` in it, read once: the literal parts, and the names between them. */
interface Template {
  readonly parts: readonly string[];
  readonly names: readonly string[];
}

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

const NAME = /\$(\$|[A-Za-z_][A-Za-z0-9_]*)/g;

function templateOf(text: string): Template {
  const parts: string[] = [];
  const names: string[] = [];
  let last = 0;
  let literal = '';
  for (const found of text.matchAll(NAME)) {
    literal += text.slice(last, found.index);
    last = found.index + found[0].length;
    // `$$` is a dollar sign.
    if (found[1] === '$') literal += '$';
    else {
      parts.push(literal);
      names.push(found[1] as string);
      literal = '';
    }
  }
  parts.push(literal + text.slice(last));
  return { parts, names };
}

function fill(template: Template, value: (name: string) => string): string {
  let text = template.parts[0] as string;
  for (let i = 0; i < template.names.length; i++) text += value(template.names[i] as string) + template.parts[i + 1];
  return text;
}

/** Reads the shared settings: every mistake with its path, relative to the connection. */
export function parseLineProtocol(settings: LineSettingsWritten): Checked<LineProtocol> {
  const issues: Issue[] = [];
  const parameters = parseParameterLines(settings.parameters);
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
    const notValue = frame.names.filter((name) => name !== 'VALUE');
    if (notValue.length > 0)
      issues.push({
        path: ['send', index, 'frame'],
        message: `$${notValue[0]} is not known here: a frame may hold $VALUE, $1 for the number of a range in its parameter (and $$ for a dollar sign)`,
      });
    if (typeOf(first?.id ?? '') === 'T' && frame.names.length > 0)
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

/** A line protocol's parameters follow nothing else in the hub in the same turn. */
export const noLinks = (): readonly Link[] => [];

/** How a transport hands over what arrives: one stream per connection or port, one per datagram. */
export interface FrameStreams {
  /** A stream of its own; `fatal` is told when it cannot go on (a length prefix past the bound). */
  open(fatal: (reason: string) => void): Framer;
}

/** What a line-protocol type supplies: its link to the device, and how a frame is written on it. */
export interface LineTransport {
  /** Opens the link once (see `LinkProtocol.open`), handing what arrives to `streams`. */
  open(attempt: LinkAttempt): void;
  /** Closes whatever is open, for good. */
  close(): void | Promise<void>;
  /** Writes one frame; `done` once the transport took it, or with why not. */
  send(frame: Buffer, done: (error?: Error) => void): void;
  /** Facts about the link worth showing (peers, the port). */
  details?(): Readonly<Record<string, unknown>>;
  /**
   * For a transport that listens: where, and whom it lets in (`receiving on *:9000; takes
   * datagrams from 10.0.0.5`), logged each time its link comes up, as every listener says.
   */
  listening?(): string;
}

export type OverrunKind = 'frames' | 'parameters' | 'flood';

/** The device of one line-protocol connection: its parameters, what frames mean, its polls. */
export class LineDevice implements FrameStreams {
  readonly counts = { matched: 0, unmatched: 0, dropped: 0, sent: 0 };
  private readonly link: DeviceLink;
  private readonly overruns: Overruns<OverrunKind>;
  private readonly parameters: DeviceParameters;
  private readonly transport: LineTransport;
  private readonly polls: Subscription[] = [];
  private readonly drops: SparseLog;
  /** What frames say that does not fit the settings: a parameter not declared, a value that does not convert. */
  private readonly oddities: SparseLog;
  /** Read once per turn on the real clock: a frame costs about a microsecond, a clock read a tenth of it. */
  private readonly clock: () => number;
  private windowStart = 0;
  private inWindow = 0;

  constructor(
    private readonly context: ConnectionContext,
    private readonly protocol: LineProtocol,
    transport: (streams: FrameStreams) => LineTransport,
  ) {
    this.transport = transport(this);
    this.overruns = new Overruns<OverrunKind>(['frames', 'parameters', 'flood'], context.scheduler, context.setStatus, 'dropped');
    this.link = new DeviceLink(
      {
        open: (attempt) =>
          this.transport.open({
            up: () => {
              const listening = this.transport.listening?.();
              if (listening !== undefined) context.log.info(listening);
              attempt.up();
              this.startPolls();
            },
            down: (reason) => {
              this.stopPolls();
              attempt.down(reason);
            },
          }),
        close: () => this.transport.close(),
      },
      { scheduler: context.scheduler, status: this.overruns.status, timeoutMs: protocol.timeout, fence: context.fence },
    );
    this.parameters = new DeviceParameters(context, this.link, this.overruns);
    this.clock = changeClockOf(context.scheduler);
    this.drops = new SparseLog(context.log, context.scheduler, 'dropped');
    this.oddities = new SparseLog(context.log, context.scheduler, 'not taken');
  }

  start(): Promise<void> {
    const { rows } = this.protocol.parameters;
    for (const row of rows) {
      const send = this.protocol.sends.get(row.id);
      this.parameters.define(
        row.id,
        {
          type: row.type,
          access: send ? Access.ReadWrite : Access.ReadOnly,
          ...(row.initial !== undefined ? { initial: row.initial } : {}),
          persist: row.type !== 'T',
        },
        (value, confirm) => this.write(row.id, value, confirm),
        { echoes: false },
      );
    }
    return this.link.start();
  }

  async stop(): Promise<void> {
    this.stopPolls();
    this.overruns.stop();
    await this.link.stop();
  }

  details(): Readonly<Record<string, unknown>> {
    return { up: this.link.up, ...this.counts, ...this.transport.details?.() };
  }

  open(fatal: (reason: string) => void): Framer {
    return new Framer(this.protocol, {
      frame: (text) => this.received(text),
      overrun: (reason, isFatal) => {
        this.dropped('frames', reason);
        if (isFatal) fatal(reason);
      },
    });
  }

  private dropped(kind: OverrunKind, reason: string): void {
    this.counts.dropped++;
    this.overruns.dropped(kind, reason);
    this.drops.warn(`dropped ${reason}`);
  }

  /** A frame from the device: the first pattern that matches sets what it names. */
  private received(text: string): void {
    const now = this.clock();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow > this.protocol.maxFramesPerSecond) {
      if (this.inWindow === this.protocol.maxFramesPerSecond + 1)
        this.dropped('flood', `frames past maxFramesPerSecond (${this.protocol.maxFramesPerSecond})`);
      else this.counts.dropped++;
      return;
    }
    for (const receiver of this.protocol.receivers) {
      const groups = receiver.pattern.groups(text);
      if (!groups) continue;
      this.counts.matched++;
      const found = receiver.each ? receiver.each.everyGroups(text).map((line) => [...line, ...groups]) : [groups];
      for (const all of found) for (const { id, value } of receiver.set) this.set(fillGroups(id, all), fillGroups(value, all), text);
      return;
    }
    this.counts.unmatched++;
    if (this.context.log.isLevelEnabled('debug')) this.context.log.debug(`unmatched frame: ${JSON.stringify(text.slice(0, 200))}`);
  }

  private set(id: string, value: string, frame: string): void {
    const parameter = this.parameters.get(id);
    if (!parameter) return this.oddities.warn(`frame ${JSON.stringify(frame.slice(0, 200))} names no parameter "${id}"`);
    const reported = parameter.report(parameter.type === 'T' ? null : value);
    if (!reported.ok) this.oddities.warn(`frame ${JSON.stringify(frame.slice(0, 200))}: ${reported.error.message}`);
  }

  private write(id: string, value: Value, confirm: (error?: unknown) => void): void {
    const send = this.protocol.sends.get(id);
    if (!send) return confirm(new HubError('PB_READ_ONLY', `${this.context.id}/${id} sends nothing`));
    const text = fill(send.frame, () => {
      const written = String(value ?? '');
      return send.values[written] ?? written;
    });
    if (this.protocol.encoding === 'hex' && notHex(text)) return confirm(new HubError('PB_CONVERSION', notHex(text) as string));
    this.transport.send(wireFrame(text, this.protocol), (error) => {
      if (!error) this.counts.sent++;
      confirm(error);
    });
  }

  private startPolls(): void {
    this.stopPolls();
    for (const poll of this.protocol.polls)
      this.polls.push(
        every(this.context.scheduler, poll.every, () => {
          this.transport.send(poll.frame, (error) => {
            if (!error) this.counts.sent++;
          });
        }),
      );
  }

  private stopPolls(): void {
    for (const poll of this.polls.splice(0)) poll.unsubscribe();
  }
}

/** The line-protocol metrics of a type (`patchbay_<type>_…`), read from its connections' details. */
export function lineMetrics(type: string): ConnectionMetric[] {
  const name = type.replace(/-/g, '_');
  return [
    {
      name: `patchbay_${name}_connected`,
      help: `1 while a ${type} connection's link is up, 0 while it reconnects.`,
      kind: 'gauge',
      samples: (details) => [{ value: details['up'] === true ? 1 : 0 }],
    },
    {
      name: `patchbay_${name}_frames_total`,
      help: `Frames a ${type} connection received (matched by a receive pattern, unmatched, dropped past a bound) and sent.`,
      kind: 'counter',
      labelNames: ['kind'],
      samples: (details) =>
        (['matched', 'unmatched', 'dropped', 'sent'] as const).map((kind) => ({ labels: { kind }, value: Number(details[kind] ?? 0) })),
    },
  ];
}

/** A line-protocol type's `parse`: its own settings as written, with the shared ones read into `protocol`. */
export function parseLine<S extends LineSettingsWritten>(written: S): Checked<S & { readonly protocol: LineProtocol }> {
  const protocol = parseLineProtocol(written);
  return protocol.ok ? { ok: true, value: { ...written, protocol: protocol.value } } : protocol;
}

/** A line-protocol type's `declared`: its parameters are kept as a dummy's are (R-S2), never sent at start (R-G3). */
export const declaredLines =
  ({ protocol }: { readonly protocol: LineProtocol }) =>
  (id: string): DeclaredParameter | undefined => {
    const row = protocol.parameters.rows[protocol.parameters.ids.indexOf(id)];
    return row && { type: row.type, persist: row.type !== 'T' };
  };

/** A line-protocol type's settings once parsed: as written, with the protocol they make. */
export type LineTypeSettings<S extends TObject> = Parsed<S> & { readonly protocol: LineProtocol };

/**
 * Declares a connection type that speaks the line protocol over one transport (tcp-client,
 * tcp-server, udp, serial). A type supplies what is its own — its settings (those of its
 * transport beside `lineSettings`), what it holds alone (a port), and how to open the
 * transport — and gets the rest alike: the parsing, the parameters a dummy's way, metrics,
 * and the device.
 */
export function defineLineType<S extends TObject>(definition: {
  readonly type: string;
  readonly summary: string;
  readonly settings: S;
  readonly claims?: (settings: LineTypeSettings<S>) => readonly Claim[];
  readonly pathsAsWritten?: (settings: LineTypeSettings<S>) => readonly string[];
  /** Mistakes in its own settings that the line settings' checks do not see (see `diagnose` of a type). */
  readonly diagnose?: (settings: LineTypeSettings<S>) => readonly Issue[];
  /** What `validate` should warn of in its settings (see `warn` of a type). */
  readonly warn?: (settings: LineTypeSettings<S>) => readonly Issue[];
  /** The transport, as these settings make it. */
  open(settings: LineTypeSettings<S>, streams: FrameStreams): LineTransport;
}): DefinedConnectionType<S, LineTypeSettings<S>> {
  return defineConnectionType<S, LineTypeSettings<S>>({
    type: definition.type,
    summary: definition.summary,
    settings: definition.settings,
    parse: (written) => parseLine(written as Parsed<S> & LineSettingsWritten),
    links: noLinks,
    ...(definition.claims ? { claims: definition.claims } : {}),
    ...(definition.pathsAsWritten ? { pathsAsWritten: definition.pathsAsWritten } : {}),
    ...(definition.diagnose ? { diagnose: definition.diagnose } : {}),
    ...(definition.warn ? { warn: definition.warn } : {}),
    declared: (parsed) => declaredLines(parsed),
    metrics: lineMetrics(definition.type),
    create(context, parsed) {
      const device = new LineDevice(context, parsed.protocol, (streams) => definition.open(parsed, streams));
      return {
        start: () => device.start(),
        stop: () => device.stop(),
        details: () => device.details(),
      };
    },
  });
}
