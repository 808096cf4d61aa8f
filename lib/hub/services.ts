/**
 * What the hub grants the connection types that serve it (`HubServices`), made from the hub;
 * and how what they serve over HTTP shows file-system paths: relative to the flow file folder.
 */
import { readdirSync } from 'node:fs';
import type { Subject } from 'rxjs';
import { connectionTypes } from '../config/connection-types.ts';
import type { Flow } from '../config/flow-file.ts';
import type { ConnectionInfo, Problem, RuleListing } from '../connections/connection.ts';
import type { ConnectionRunner } from '../connections/runner.ts';
import type { HubServices, Redundancy } from '../connections/serving.ts';
import type { HubCounts } from '../core/counts.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { StoreView } from '../core/store-view.ts';
import type { Graph } from '../core/graph.ts';
import { mapStrings, relativePaths } from '../core/paths.ts';
import type { Mirrors } from './mirrors.ts';

/** The hub as the services read it: what it lists to anyone who asks. */
export interface ServedHub {
  readonly graph: Graph;
  listConnections(): ConnectionInfo[];
  connection(id: string): ConnectionRunner | undefined;
  problems(): Problem[];
  rules(): RuleListing[];
  counts(): HubCounts;
}

/** What the services reach that the hub keeps to itself. */
export interface ServedInsides {
  /** What the hub shows of connections other hubs run (R-M5). */
  readonly mirrors: Mirrors;
  /** Emits after a connection of the hub changed its status, or connections came or went. */
  readonly connectionsChanged: Subject<void>;
  /** The hub's side of its redundancy group. */
  readonly redundancy: Redundancy;
  /** The running flow. */
  flow(): Flow;
  signInKey(): Buffer;
  whenServing(work: () => void): void;
  flowFile(): FlowView | undefined;
  store(): StoreView | undefined;
}

/** What the types that serve the hub (`servesHub`) are granted; made once, for every such connection. */
export function hubServices(hub: ServedHub, inside: ServedInsides): HubServices {
  return {
    graph: hub.graph,
    // Served over HTTP, to anyone when the hub has no credentials: file-system paths are
    // given relative to the flow file folder (the log and the CLI keep them whole).
    connections: () => mapStrings(hub.listConnections(), servedPaths(inside.flow())),
    connectionChanges$: inside.connectionsChanged,
    mirror: (id, owner) => inside.mirrors.open(id, owner),
    refuse: (id, error) => void hub.connection(id)?.refuse(error),
    problems: () => mapStrings(hub.problems(), servedPaths(inside.flow())),
    rules: () => hub.rules(),
    counts: () => hub.counts(),
    signInKey: () => inside.signInKey(),
    whenServing: (work) => inside.whenServing(work),
    // The types of packages the flow names too (R-PK1): those of the flow the hub started with.
    connectionMetrics: () =>
      [...connectionTypes, ...inside.flow().plugins.types].flatMap(({ type, metrics }) => metrics.map((metric) => ({ type, ...metric }))),
    redundancy: inside.redundancy,
    flowFile: () => inside.flowFile(),
    store: () => inside.store(),
  };
}

function servedPaths(flow: Flow): (text: string) => string {
  return relativePaths(
    flow.baseDir,
    rootEntries,
    flow.connections.flatMap((connection) => connection.plan.pathsAsWritten),
  );
}

/**
 * The entries of the root folder (`home`, `tmp`, `srv` …): what an absolute path in a message
 * starts with. Not `dev`: a serial port's `/dev/ttyUSB0` tells nothing of how the machine is
 * laid out, and the operator needs it as it is.
 */
const rootEntries = (() => {
  try {
    return readdirSync('/').filter((entry) => entry !== 'dev');
  } catch {
    return [];
  }
})();
