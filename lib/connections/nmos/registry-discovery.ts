/**
 * Registries found by DNS-SD (R-NM1, IS-04's registered discovery): `_nmos-register._tcp`
 * asked over multicast DNS on the local network, each registry's SRV, TXT and address
 * records read from the answers, and the Registration APIs this node can use listed best
 * first — `api_proto=http`, `api_ver` naming v1.3, no `api_auth` — by their `pri` (lower is
 * preferred). Asked again every `intervalMs`, and whenever the registration needs another;
 * a registry that says goodbye (a TTL of 0) is forgotten. Bounded: at most 32 registries and
 * 64 addresses are kept, whatever a network sends. The reading of records is pure
 * (`registriesIn`); the socket is multicast-dns's (pure JavaScript, no Avahi), bound to every
 * interface as mDNS responders expect to answer.
 */
import { createRequire } from 'node:module';
import type { SchedulerAction, Subscription } from 'rxjs';
import type { Logger, Scheduler } from '../../sdk/index.ts';

export const REGISTER_SERVICE = '_nmos-register._tcp.local';
const MOST_REGISTRIES = 32;
const MOST_ADDRESSES = 64;

/** A DNS record as multicast-dns gives it (the kinds read here). */
export type DnsRecord =
  | { readonly type: 'PTR'; readonly name: string; readonly ttl?: number; readonly data: string }
  | {
      readonly type: 'SRV';
      readonly name: string;
      readonly ttl?: number;
      readonly data: { readonly target: string; readonly port: number };
    }
  | { readonly type: 'TXT'; readonly name: string; readonly ttl?: number; readonly data: readonly (Buffer | string)[] | Buffer | string }
  | { readonly type: 'A'; readonly name: string; readonly ttl?: number; readonly data: string }
  | { readonly type: string; readonly name: string; readonly ttl?: number; readonly data?: unknown };

/** What is known of one advertised registry, by its instance name. */
interface Instance {
  srv?: { target: string; port: number };
  txt?: ReadonlyMap<string, string>;
}

/** What the records say, kept across answers: registries by instance, addresses by host name. */
export class RegistryRecords {
  private readonly instances = new Map<string, Instance>();
  private readonly addresses = new Map<string, string>();

  /** Takes in the records of one answer. */
  take(records: readonly DnsRecord[]): void {
    for (const record of records) {
      const gone = record.ttl === 0;
      if (record.type === 'PTR' && record.name.toLowerCase() === REGISTER_SERVICE) {
        const name = String(record.data).toLowerCase();
        if (gone) this.instances.delete(name);
        else if (!this.instances.has(name) && this.instances.size < MOST_REGISTRIES) this.instances.set(name, {});
      }
    }
    for (const record of records) {
      const gone = record.ttl === 0;
      const instance = this.instances.get(record.name.toLowerCase());
      if (record.type === 'SRV' && instance) {
        const { target, port } = record.data as { target: string; port: number };
        if (typeof target === 'string' && Number.isInteger(port)) instance.srv = { target: target.toLowerCase(), port };
      } else if (record.type === 'TXT' && instance) instance.txt = txtOf(record.data);
      else if (record.type === 'A' && typeof record.data === 'string') {
        const host = record.name.toLowerCase();
        if (gone) this.addresses.delete(host);
        else if (this.addresses.has(host) || this.addresses.size < MOST_ADDRESSES) this.addresses.set(host, record.data);
      }
    }
  }

  /** The Registration APIs this node can use, best first. */
  registries(): string[] {
    const usable: { url: string; priority: number; name: string }[] = [];
    for (const [name, { srv, txt }] of this.instances) {
      if (srv === undefined || txt === undefined) continue;
      if ((txt.get('api_proto') ?? 'http') !== 'http' || txt.get('api_auth') === 'true') continue;
      if (!(txt.get('api_ver') ?? '').split(',').includes('v1.3')) continue;
      const address = this.addresses.get(srv.target) ?? srv.target.replace(/\.$/, '');
      const priority = Number(txt.get('pri') ?? '100');
      usable.push({ url: `http://${address}:${srv.port}`, priority: Number.isFinite(priority) ? priority : 100, name });
    }
    usable.sort((a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...new Set(usable.map(({ url }) => url))];
  }
}

/** TXT strings `key=value` as a map (keys lower-case, as DNS-SD compares them). */
function txtOf(data: unknown): Map<string, string> {
  const strings = (Array.isArray(data) ? data : [data])
    .slice(0, 64)
    .map((part) => (Buffer.isBuffer(part) ? part.toString('utf8') : String(part)));
  const map = new Map<string, string>();
  for (const text of strings) {
    const split = text.indexOf('=');
    if (split > 0) map.set(text.slice(0, split).toLowerCase(), text.slice(split + 1));
  }
  return map;
}

/** What is used of a multicast-dns instance. */
interface Mdns {
  on(event: 'response', listener: (packet: { answers?: DnsRecord[]; additionals?: DnsRecord[] }) => void): void;
  on(event: 'error' | 'warning', listener: (error: Error) => void): void;
  query(query: { questions: { name: string; type: string }[] }): void;
  destroy(): void;
}

// The package has no types of its own: the one line that adapts it.
const multicastDns = createRequire(import.meta.url)('multicast-dns') as () => Mdns;

/** Asks the local network for registries and keeps what it answers. */
export class RegistryBrowser {
  private readonly records = new RegistryRecords();
  private mdns: Mdns | undefined;
  private asking: Subscription | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly log: Logger,
    private readonly intervalMs: number,
    /** Told when the registries found change: the registration need not wait to hear of them. */
    private readonly changed: () => void = () => {},
  ) {}

  start(): void {
    const mdns = multicastDns();
    this.mdns = mdns;
    mdns.on('response', (packet) => {
      const before = this.records.registries().join(' ');
      this.records.take([...(packet.answers ?? []), ...(packet.additionals ?? [])]);
      const now = this.records.registries().join(' ');
      if (now === before) return;
      // Which registries the node could fail over to, and when it learnt of them: what a failover that skipped one is read from.
      this.log.debug(`DNS-SD: registries now ${now || 'none'}`);
      this.changed();
    });
    mdns.on('error', (error) => this.log.warn(`DNS-SD: ${error.message}`));
    mdns.on('warning', (error) => this.log.debug(`DNS-SD: ${error.message}`));
    const browser = this;
    this.asking = this.scheduler.schedule(function (this: SchedulerAction<unknown>) {
      browser.ask();
      this.schedule(undefined, browser.intervalMs);
    });
  }

  /** Asks again now: the registration has none it can use. */
  ask(): void {
    try {
      this.mdns?.query({ questions: [{ name: REGISTER_SERVICE, type: 'PTR' }] });
    } catch (error) {
      this.log.warn(`DNS-SD: could not ask for registries: ${(error as Error).message}`);
    }
  }

  registries(): string[] {
    return this.records.registries();
  }

  stop(): void {
    this.asking?.unsubscribe();
    this.mdns?.destroy();
    this.mdns = undefined;
  }
}
