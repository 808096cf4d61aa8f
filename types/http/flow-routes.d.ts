import type { Route } from './route.ts';
/**
 * The largest flow file taken over HTTP: ten times a large studio's (500 connections and
 * 2,000 rules are some 200 KB), and small enough that checking it holds the hub up briefly.
 * A generated flow larger than that is edited on disk.
 */
export declare const MAX_FLOW_BYTES: number;
export declare const flowRoutes: readonly Route[];
