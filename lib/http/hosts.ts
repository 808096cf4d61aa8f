/**
 * The names a hub answers under, against DNS rebinding: a page of `evil.example` whose
 * name later resolves to the hub's address sends requests that a browser counts as its
 * own origin, with `Host: evil.example`. The hub answers only a `Host` that is an IP
 * literal, `localhost`, a name of this machine (its host name, and that name `.local` for
 * mDNS) or a name the rest-api lists in `hostnames`; an attacker controls none of them.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { hostname } from 'node:os';

/** A `Host` header split into its name (lower case, no brackets, no trailing dot) and port. */
export interface HostHeader {
  readonly name: string;
  /** As written, "" when absent. */
  readonly port: string;
  readonly ip: boolean;
}

/** Parses a `Host` header (`name`, `name:port`, `1.2.3.4:port`, `[::1]:port`); undefined for anything else. */
export function parseHost(header: string): HostHeader | undefined {
  const lower = header.trim().toLowerCase();
  if (lower.startsWith('[')) {
    const close = lower.indexOf(']');
    const name = lower.slice(1, close);
    const rest = lower.slice(close + 1);
    if (close < 0 || !isIPv6(name) || !/^(:\d{1,5})?$/.test(rest)) return undefined;
    return { name, port: rest.slice(1), ip: true };
  }
  const match = /^([a-z0-9._-]+?)\.?(?::(\d{1,5}))?$/.exec(lower);
  if (!match?.[1]) return undefined;
  return { name: match[1], port: match[2] ?? '', ip: isIPv4(match[1]) };
}

/** The names under which a hub answers, besides IP literals. */
export class HostAllowList {
  private readonly names: ReadonlySet<string>;

  /** `hostnames` as the flow file gives them (names without port); the machine's own are added. */
  constructor(hostnames: readonly string[], machine: string = hostname()) {
    const own = machine.toLowerCase();
    this.names = new Set(['localhost', ...(own ? [own, `${own}.local`] : []), ...hostnames.map((name) => name.toLowerCase())]);
  }

  /** True for a `Host` the hub answers. */
  allows(header: string): boolean {
    const host = parseHost(header);
    return host !== undefined && (host.ip || this.names.has(host.name));
  }
}
