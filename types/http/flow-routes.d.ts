import type { Route } from './route.ts';
/** The largest flow file taken: far above a studio's (a flow of 500 connections and 2,000 rules is some 200 KB). */
export declare const MAX_FLOW_BYTES: number;
export declare const flowRoutes: readonly Route[];
