/**
 * What the hubs of this hub's redundancy group say of themselves (R-B1–B5): their role
 * records, taken as the group's rules allow (an epoch more than one step ahead waits for that
 * hub's own renewals to confirm it); their lease renewals, counted only when bound to this
 * hub's session; and the records of the active hub's connections, kept for a takeover (R-B4).
 */
import type { Scheduler, Json } from '../../../sdk/index.ts';
import type { MessageProperties } from '../broker-link.ts';
import type { GroupDirectory } from '../group/directory.ts';
import type { RedundancyGroup } from '../group/group.ts';
import { readRecord, type RoleRecord } from '../group/record.ts';
import { SILENCE_MS } from '../group/timing.ts';
import type { SiteChecks } from './checks.ts';
import type { Corrections } from './corrections.ts';
import { type OtherHub, parseJson } from './description.ts';

/** What the records need of the sharing that holds them. */
export interface RecordsHost {
  /** This hub's group, when it is in one (set once the group is made). */
  group(): RedundancyGroup | undefined;
  readonly groups: GroupDirectory;
  readonly others: ReadonlyMap<string, OtherHub>;
  /** Whether the broker is connected now. */
  up(): boolean;
  /** Who holds a lease changed: who owns which connection is decided again. */
  ownersChanged(): void;
}

export class GroupRecords {
  /** The records each hub of the group publishes of its connections, while it is active. */
  private readonly recordsOf = new Map<string, Map<string, [string, Json][]>>();
  /** Role records of the group's hubs whose epoch is more than one step ahead: taken once that hub's own fresh renewals say the same epoch. */
  private readonly unconfirmed = new Map<string, RoleRecord>();

  constructor(
    private readonly hubId: string,
    private readonly host: RecordsHost,
    private readonly checks: SiteChecks,
    private readonly corrections: Corrections,
    private readonly scheduler: Scheduler,
  ) {}

  /** A hub's role in a redundancy group, as the group's rules allow it: who owns a group's connections may have changed. */
  roleRecord(topic: string, hubId: string, payload: Buffer, properties: MessageProperties): void {
    const record = readRecord(payload);
    if (!record) return;
    const group = this.host.group();
    if (group) {
      // Its own record from before (not of this run), once up: someone else's doing, put right.
      const own = hubId === this.hubId && this.host.up() && !this.checks.fromThisRun(properties);
      const refusal = group.refusal(hubId, record, own);
      if (refusal === 'unconfirmed') {
        this.unconfirmed.set(hubId, record);
        return this.checks.refuse(
          'refused',
          topic,
          `hub ${hubId} says epoch ${record.epoch}, more than one step ahead: taken once its renewals confirm it`,
        );
      }
      if (refusal !== undefined) {
        this.checks.refuse('refused', topic, refusal);
        if (own) this.corrections.correct(topic, () => this.host.group()?.republishRecord());
        return;
      }
      this.unconfirmed.delete(hubId);
    }
    this.take(hubId, record);
  }

  /**
   * A renewal of a hub of the group: it counts when it is bound to this hub's session (one
   * played back from before is not), and it confirms a record of that hub's that was more
   * than one epoch ahead.
   */
  renewal(topic: string, hubId: string, payload: Buffer): void {
    const renewal = parseJson(payload);
    const seen = renewal?.['seen'] as Record<string, unknown> | undefined;
    if (seen?.[this.hubId] !== this.checks.session) {
      // Sent before that hub heard this session's presence: not counted for a moment after a connect.
      if (this.scheduler.now() > this.checks.sessionSince + 2 * SILENCE_MS)
        this.checks.refuse('replayed', topic, `a renewal of hub ${hubId} not bound to this session: played back`);
      return;
    }
    this.host.group()?.renewalHeard(hubId);
    const unconfirmed = this.unconfirmed.get(hubId);
    if (unconfirmed && renewal?.['epoch'] === unconfirmed.epoch) {
      this.unconfirmed.delete(hubId);
      this.take(hubId, unconfirmed);
    }
  }

  /** Records of a hub's connections, signed by it: kept, in case it is the active hub of this hub's group when it goes (R-B4). */
  records(hubId: string, connectionId: string, payload: Buffer): void {
    if (!this.host.group()) return;
    const data = payload.length > 0 ? parseJson(payload) : undefined;
    const kept = this.recordsOf.get(hubId) ?? new Map<string, [string, Json][]>();
    this.recordsOf.set(hubId, kept);
    if (data) kept.set(connectionId, Object.entries(data) as [string, Json][]);
    else kept.delete(connectionId);
  }

  /** The records `owner` published of its connections: what a takeover from it starts from. */
  recordsOfHub(owner: string | undefined): Map<string, [string, Json][]> {
    return new Map(owner === undefined ? [] : this.recordsOf.get(owner));
  }

  /** The hubs whose records say they are active in a later epoch than this hub knows, not confirmed yet. */
  unconfirmedActive(): string[] {
    return [...this.unconfirmed].filter(([, record]) => record.role === 'active').map(([hubId]) => hubId);
  }

  /** The broker sessions of the other hubs of the group that are here: a renewal names them, bound to each. */
  sessions(): Record<string, string> {
    const sessions: Record<string, string> = {};
    const group = this.host.group();
    for (const [hubId, other] of this.host.others)
      if (other.online && other.session && (group?.isPeer(hubId) || this.unconfirmed.has(hubId))) sessions[hubId] = other.session;
    return sessions;
  }

  private take(hubId: string, record: RoleRecord): void {
    const before = this.host.groups.recordOf(hubId);
    this.host.groups.heard(hubId, record);
    this.host.group()?.record(hubId, record);
    if (before === undefined || before.role !== record.role || before.epoch !== record.epoch || before.group !== record.group)
      this.host.ownersChanged();
  }
}
