/**
 * The lease's renewals over the broker (R-B3): every hub of the group sends one every 200 ms,
 * and each the broker acknowledges keeps the active hub's lease `LEASE_MS` longer and shows
 * that what this hub hears is current. The other hubs' renewals heard, with their presence,
 * say which of them are still here: one silent for `SILENCE_MS` while this hub's own came
 * back is gone, whatever its presence says.
 */
import { performance } from 'node:perf_hooks';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { every } from '../../sdk/index.ts';
import type { SiteContext } from '../hub-port.ts';
import type { BrokerLink } from '../../broker/broker-link.ts';
import type { HubSettings, SiteSettings } from '../settings.ts';
import type { Roles } from './roles.ts';
import { LEASE_MS, RENEW_EVERY_MS, SILENCE_MS } from './timing.ts';

export interface Peer {
  online: boolean;
  /** `performance.now()` when its latest renewal came. */
  heardAt: number | undefined;
}

export class Renewals {
  private readonly peers = new Map<string, Peer>();
  /** `performance.now()` until which the broker's acknowledgements keep the lease. */
  acknowledgedUntil = 0;
  /** When the latest of this hub's renewals that came back acknowledged was sent. */
  private freshSince = 0;
  private renewals: Subscription | undefined;
  private readonly acknowledged = new Subject<void>();
  /** Emits when the broker acknowledged a renewal: what this hub hears is current, so whether to claim is looked at again. */
  readonly acknowledged$: Observable<void> = this.acknowledged.asObservable();

  constructor(
    private readonly context: SiteContext,
    private readonly settings: SiteSettings,
    private readonly hub: HubSettings,
    private readonly link: BrokerLink,
    private readonly roles: Roles,
    /** The broker sessions of the group's hubs that are here: each renewal is bound to them (R-AV3). */
    private readonly sessions: () => Record<string, string>,
  ) {}

  /** Every 200 ms a renewal: the active hub's lease, and every hub's proof that what it hears is current. */
  start(): void {
    if (this.renewals) return;
    this.acknowledgedUntil = 0;
    const renew = () => {
      const sentAt = performance.now();
      // Bound to each other hub's session, with the epoch this hub knows: a renewal played back later counts for nothing (R-AV3).
      const renewal = JSON.stringify({ epoch: this.roles.epoch, seen: this.sessions() });
      this.link.publish(this.settings.layout.lease(this.hub.id), renewal, { qos: 1, retain: false }, 'drop', (error) => {
        if (error) return;
        this.freshSince = Math.max(this.freshSince, sentAt);
        this.acknowledgedUntil = Math.max(this.acknowledgedUntil, sentAt + LEASE_MS);
        this.context.hub.redundancy.lease.renew(this.acknowledgedUntil);
        this.acknowledged.next();
      });
      if (this.roles.current === 'active' && !this.context.hub.redundancy.lease.holds()) {
        this.roles.lapse(`its lease ran out: the broker acknowledged no renewal for ${LEASE_MS / 1000} s`);
      }
    };
    renew();
    this.renewals = every(this.context.scheduler, RENEW_EVERY_MS, renew);
  }

  stop(): void {
    this.renewals?.unsubscribe();
    this.renewals = undefined;
    this.acknowledgedUntil = 0;
  }

  /** What this hub knows of another hub's being here (this one is online from the start). */
  peer(hubId: string): Peer {
    let peer = this.peers.get(hubId);
    if (!peer) this.peers.set(hubId, (peer = { online: hubId === this.hub.id, heardAt: undefined }));
    return peer;
  }

  /** True while the hub is here and renews; false once it went, or fell silent while this hub's own renewals came back. */
  alive(hubId: string): boolean {
    const peer = this.peers.get(hubId);
    if (!peer?.online) return false;
    const since = Math.max(peer.heardAt ?? 0, this.roles.upSince ?? 0);
    return this.freshSince <= since + SILENCE_MS;
  }
}
