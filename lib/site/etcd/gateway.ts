/**
 * The few calls of etcd's v3 API a redundancy group needs (R-EG1), over the JSON gateway every
 * etcd 3.4 member serves on its client URL (`/v3/...`): no gRPC client, no dependency. Each
 * call has a deadline of its own (a member that is paused or cut off costs one deadline, not
 * the 7 s a default gRPC client stalls), and a call that fails moves to the next endpoint, so
 * a dead member costs one deadline once. docs/decisions/etcd-groups.md says why this over
 * `etcd3` or a gRPC client.
 */
import { after, type Scheduler } from '../../sdk/index.ts';

/** A key under the group's prefix, as etcd holds it. */
export interface EtcdEntry {
  readonly key: string;
  readonly value: string;
  /** The revision that created the key: the election's revision (the fencing token) of its holder. */
  readonly createRevision: number;
  readonly lease: string;
}

type Body = Record<string, unknown>;

const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (base64: unknown) => Buffer.from(typeof base64 === 'string' ? base64 : '', 'base64').toString();

/** The key just past every key that starts with `prefix` (etcd's range end of a prefix). */
export function prefixEnd(prefix: string): string {
  const bytes = Buffer.from(prefix);
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) return Buffer.concat([bytes.subarray(0, i), Buffer.from([bytes[i]! + 1])]).toString('latin1');
  }
  return '\0';
}

export class EtcdGateway {
  private next = 0;

  constructor(
    private readonly endpoints: readonly string[],
    private readonly scheduler: Scheduler,
    /** How long one call may take before the next endpoint is asked. */
    private readonly deadlineMs: number,
  ) {}

  /** The endpoint asked last (where the group's calls go while it answers). */
  get endpoint(): string {
    return this.endpoints[this.next % this.endpoints.length]!;
  }

  /** A lease of `ttlS` seconds; resolves with its id and the TTL etcd granted (it may raise a short one). */
  async grant(ttlS: number): Promise<{ id: string; ttlS: number }> {
    const answer = await this.call('/v3/lease/grant', { TTL: ttlS });
    return { id: String(answer['ID']), ttlS: Number(answer['TTL']) };
  }

  /** Keeps the lease alive once; resolves with the TTL etcd restarted it with (0: the lease is gone). */
  async keepAlive(id: string): Promise<number> {
    const answer = await this.call('/v3/lease/keepalive', { ID: id });
    return Number((answer['result'] as Body | undefined)?.['TTL'] ?? 0);
  }

  /** Gives the lease up: its keys go at once. */
  async revoke(id: string): Promise<void> {
    await this.call('/v3/lease/revoke', { ID: id });
  }

  /** Puts `key` with `value` under `lease` unless it exists; resolves true when it was put. */
  async create(key: string, value: string, lease: string): Promise<boolean> {
    const answer = await this.call('/v3/kv/txn', {
      compare: [{ key: b64(key), target: 'CREATE', create_revision: '0' }],
      success: [{ request_put: { key: b64(key), value: b64(value), lease } }],
    });
    return answer['succeeded'] === true;
  }

  /** The keys under `prefix`, oldest first (by the revision that created them), and the store's revision. */
  async range(prefix: string): Promise<{ entries: EtcdEntry[]; revision: number }> {
    const answer = await this.call('/v3/kv/range', {
      key: b64(prefix),
      range_end: Buffer.from(prefixEnd(prefix), 'latin1').toString('base64'),
      sort_target: 'CREATE',
      sort_order: 'ASCEND',
    });
    const kvs = (answer['kvs'] as Body[] | undefined) ?? [];
    return {
      entries: kvs.map((kv) => ({
        key: text(kv['key']),
        value: text(kv['value']),
        createRevision: Number(kv['create_revision']),
        lease: String(kv['lease'] ?? '0'),
      })),
      revision: Number((answer['header'] as Body | undefined)?.['revision'] ?? 0),
    };
  }

  /** One call within the deadline; on a failure the next endpoint is the one asked next time. */
  private async call(path: string, body: Body): Promise<Body> {
    const endpoint = this.endpoint;
    const abort = new AbortController();
    const deadline = after(this.scheduler, this.deadlineMs, () => abort.abort());
    try {
      const response = await fetch(`${endpoint}${path}`, { method: 'POST', body: JSON.stringify(body), signal: abort.signal });
      const answer = (await response.json()) as Body;
      if (!response.ok) throw new Error(String(answer['message'] ?? answer['error'] ?? response.status));
      return answer;
    } catch (error) {
      this.next++;
      const why = abort.signal.aborted ? `no answer within ${this.deadlineMs} ms` : (error as Error).message;
      throw new Error(`etcd at ${endpoint} (${path}): ${why}`);
    } finally {
      deadline.unsubscribe();
    }
  }
}
