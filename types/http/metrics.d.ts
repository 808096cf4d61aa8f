import { Registry } from 'prom-client';
import { type ConnectionInfo } from '../core/api-shapes.ts';
import type { ConnectionMetric, HubCounts } from '../core/counts.ts';
import type { Graph } from '../core/graph.ts';
import type { Tally } from './respond.ts';
import type { WsFanOut } from './ws/fan-out.ts';
/** What `/metrics` reads, at scrape time only: nothing is counted twice or on a timer. */
export interface MetricSources {
    readonly graph: Graph;
    readonly connections: () => readonly ConnectionInfo[];
    readonly webSockets: WsFanOut;
    /** Answers by status, per route. */
    readonly routes: ReadonlyMap<string, Tally>;
    /** The hub's own counts: rules and the state store. */
    readonly counts?: () => HubCounts;
    /** What each connection type reports of its connections. */
    readonly connectionMetrics: readonly TypedMetric[];
}
type TypedMetric = ConnectionMetric & {
    readonly type: string;
};
/**
 * The Prometheus registry of one rest-api connection (R-O1): the process (prom-client's
 * default metrics, event-loop lag included), connections, parameters, HTTP answers and
 * WebSocket clients. Every value is read from the hub when scraped; the request and
 * WebSocket paths only add to plain counters.
 */
export declare function hubMetrics(sources: MetricSources): Registry;
export {};
