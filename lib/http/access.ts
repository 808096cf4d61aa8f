import type { AddressPatterns } from '../core/address-pattern.ts';
import { fail, type Result } from '../core/errors.ts';
import { type Graph, nothingAt } from '../core/graph.ts';
import type { Answered, Parameter, SetResult } from '../core/parameter.ts';
import type { CodedError } from './respond.ts';

/**
 * What one authenticated client may do (R-A2): which parameters it can read and write,
 * and which connections it can see. Everything a client is served or may change goes
 * through one of these.
 */
export interface ClientAccess {
  /** `*` for full access (no authentication, username/password, the `token`), else the scoped token's name. */
  readonly name: string;
  readonly full: boolean;
  /**
   * False only for a hub without credentials, where every request has full access without
   * having shown anything: what anyone who reaches the port may do. The flow editor refuses it.
   */
  readonly signedIn: boolean;
  /** May read `/metrics`. */
  readonly metrics: boolean;
  /** May ask a standby to take over its redundancy group (`POST /failover`, R-B5). */
  readonly admin: boolean;
  canRead(address: string): boolean;
  canWrite(address: string): boolean;
  /** True when some parameter of the connection may be readable: it is listed in `/connections`. */
  seesConnection(connectionId: string): boolean;
}

export const fullAccess: ClientAccess = {
  name: '*',
  full: true,
  signedIn: true,
  metrics: true,
  admin: true,
  canRead: () => true,
  canWrite: () => true,
  seesConnection: () => true,
};

/** Every request's access on a hub without credentials: full, but nobody signed in. */
export const anonymousAccess: ClientAccess = { ...fullAccess, signedIn: false };

/** The access of a scoped token: `read` and `write` address patterns (a writable address must be readable too). */
export function scopedAccess(name: string, read: AddressPatterns, write: AddressPatterns, metrics = false, admin = false): ClientAccess {
  return {
    name,
    full: false,
    signedIn: true,
    metrics,
    admin,
    canRead: (address) => read.matches(address),
    canWrite: (address) => read.matches(address) && write.matches(address),
    seesConnection: (connectionId) => read.reachesConnection(connectionId),
  };
}

/**
 * The parameter at `address` as this client sees it: one it cannot read does not exist
 * for it, with the same answer as a parameter that does not exist (404), so a scoped
 * token learns nothing of what lies outside its patterns.
 */
export function lookupFor(access: ClientAccess, graph: Graph, address: string): Result<Parameter> {
  return access.full || access.canRead(address) ? graph.lookup(address) : hidden(access, graph, address);
}

/** What a client that cannot read `address` is told of it: what it would be told of nothing there. */
function hidden(access: ClientAccess, graph: Graph, address: string): Result<never> {
  const slash = address.indexOf('/');
  const connectionId = slash < 0 ? address : address.slice(0, slash);
  return graph.hasConnection(connectionId) && access.seesConnection(connectionId)
    ? fail('PB_UNKNOWN_PARAMETER', `${address}: connection "${connectionId}" has no parameter "${address.slice(slash + 1)}"`)
    : fail('PB_UNKNOWN_CONNECTION', `${address}: there is no connection "${connectionId}"`);
}

/** The parameter at `address` this client may write: 404 as `lookupFor`, 403 PB_FORBIDDEN outside its `write` patterns. */
export function writableFor(access: ClientAccess, graph: Graph, address: string): Result<Parameter> {
  const found = lookupFor(access, graph, address);
  if (!found.ok || access.full || access.canWrite(address)) return found;
  return fail('PB_FORBIDDEN', `${address}: this token may not write it`);
}

/**
 * Writes `raw` for this client to `parameter`, what the caller found at `address` (undefined
 * for nothing), so that a write looks its parameter up once: refused as `writableFor` refuses.
 */
export function writeFound(
  access: ClientAccess,
  graph: Graph,
  address: string,
  parameter: Parameter | undefined,
  raw: unknown,
  origin: string,
  answered?: Answered,
): SetResult {
  if (!access.full && !access.canRead(address)) return hidden(access, graph, address);
  if (parameter === undefined) return nothingAt(graph, address);
  if (!access.full && !access.canWrite(address)) return fail('PB_FORBIDDEN', `${address}: this token may not write it`);
  return parameter.set(raw, origin, answered);
}

/** How a connection stands, as `GET /connections` lists it. */
type Standing = { readonly id: string; readonly status: string; readonly reason?: string };

/**
 * A parameter a connection does not have, asked of it while it is not up, says how the
 * connection stands: a device's parameters (an ATEM's M/Es, a Videohub's outputs) may come
 * once it has answered, and a 404 alone read as a wrong id. Any other error as it is.
 */
export function withStanding(error: CodedError, address: string, connections: () => readonly Standing[]): CodedError {
  if (error.code !== 'PB_UNKNOWN_PARAMETER') return error;
  const id = address.slice(0, address.indexOf('/'));
  const standing = connections().find((connection) => connection.id === id);
  if (standing === undefined || standing.status === 'ok') return error;
  const why = standing.reason ? `: ${standing.reason}` : '';
  const message = `${error.message} (it is ${standing.status}${why}; a device's parameters may come once it has answered)`;
  return { code: error.code, declared: error.declared, message };
}
