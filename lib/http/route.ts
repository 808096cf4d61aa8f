/**
 * What a route is: a path with a handler and a description per method, and what every
 * handler reads (the hub through plain data and functions).
 */
import type { Registry } from 'prom-client';
import type { Answers } from '../core/api-shapes.ts';
import type { Result } from '../core/errors.ts';
import type { FlowView } from '../core/flow-view.ts';
import type { StoreView } from '../core/store-view.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { SparseLog } from '../core/sparse-log.ts';
import type { ClientAccess } from './access.ts';
import type { OperationDescription } from './operation-shapes.ts';
import type { StaticFiles } from './static-files.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

/** What handlers read: the hub through plain data and functions, never lib/connections. */
export interface RouteContext {
  readonly graph: Graph;
  readonly files: StaticFiles | undefined;
  /** `GET /connections`: each connection as JSON-able data. */
  readonly connections: () => Answers['/connections'];
  /** `GET /problems`: the hub's current problems as JSON-able data. */
  readonly problems: () => Answers['/problems'];
  /** `GET /rules`: the flow's enabled rules as JSON-able data. */
  readonly rules: () => Answers['/rules'];
  /** Largest accepted request body (413 above it). */
  readonly maxBody: number;
  /** Calls back once every write so far is stored as safely as the hub promises (R-S4). */
  readonly settled?: (done: () => void) => void;
  /** The hub's redundancy group, while it is in one (R-B1). */
  readonly group?: () => GroupView | undefined;
  readonly log: Logger;
  /** The registry `/metrics` answers from (R-O1). */
  readonly metrics: Registry;
  /** The connections `/readyz` waits for; empty: every enabled one (R-O1). */
  readonly required: readonly string[];
  /** Refused writes, logged sparsely: a client that keeps failing is one line in ten seconds. */
  readonly refusals: SparseLog;
  /** The flow file, for `/flow` (R-ED3); absent for a hub that was not started from one (a spec's). */
  readonly flow?: FlowView;
  /** What a studio can add beside the flow file, for `/catalogue` (R-ST2); absent with the flow file. */
  readonly store?: StoreView;
  /** The name of the session cookie, which holds the port (for the descriptions, R-DS1). */
  readonly sessionCookie: () => string;
}

/** A redundancy group as the routes see it (plain functions: lib/http depends on nothing in lib/connections). */
export interface GroupView {
  role(): 'active' | 'standby';
  failover(): Result<string>;
  /** Calls back once the broker acknowledged every value published so far; false when its connection closed first (R-B2). */
  replicated(done: (acknowledged: boolean) => void): void;
  /** Why this hub cannot take its part in the group now (a group on etcd that cannot reach etcd, R-EG4); undefined while it can. */
  unready?(): string | undefined;
}

/** A request handler; `access` is what the client's credentials grant (R-A2). */
export type Handler = (res: HttpResponse, req: HttpRequest, context: RouteContext, access: ClientAccess) => void;

/** One method of a path: its handler and what `/openapi.json` and the reference say of it (R-DS1), declared together. */
export interface Operation extends OperationDescription {
  readonly handle: Handler;
}

/** A path and what each of its methods takes and answers: what the descriptions are made of. */
export interface DescribedRoute {
  readonly path: string;
  readonly get?: OperationDescription;
  readonly post?: OperationDescription;
  readonly put?: OperationDescription;
}

/** Each method of each route with its description, in the order declared. */
export function* operationsOf(
  routes: readonly DescribedRoute[],
): Generator<{ readonly path: string; readonly method: 'get' | 'post' | 'put'; readonly operation: OperationDescription }> {
  for (const route of routes)
    for (const method of ['get', 'post', 'put'] as const) {
      const operation = route[method];
      if (operation) yield { path: route.path, method, operation };
    }
}

/**
 * A path the server routes, each method with its handler and description. A built-in path
 * wins over a hosted file of the same name, and other methods get 405. A GET whose
 * description says it `changes` a parameter (`/update`) may not come from a foreign page
 * (R-H10); POSTs and PUTs never may.
 */
export interface Route extends DescribedRoute {
  /** Absent for a path that only takes POST (`/failover`). */
  readonly get?: Operation;
  readonly post?: Operation;
  readonly put?: Operation;
}
