/**
 * Declares a line-protocol connection type from what is its own (its transport and the
 * settings of it): the parsing of the shared settings, its parameters, its metrics and its
 * device come alike for every such type.
 */
import type { TObject } from '@sinclair/typebox';
import type { ConnectionMetric } from '../../core/counts.ts';
import type { Checked, Issue } from '../../core/issue.ts';
import type { Parsed } from '../settings.ts';
import { type Claim, type DeclaredParameter, type DefinedConnectionType, defineConnectionType, type Link } from '../type.ts';
import { type FrameStreams, LineDevice, type LineTransport } from './line-device.ts';
import { type LineProtocol, parseLineProtocol } from './line-protocol.ts';
import type { LineSettingsWritten } from './line-settings.ts';

/** A line protocol's parameters follow nothing else in the hub in the same turn. */
export const noLinks = (): readonly Link[] => [];

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
