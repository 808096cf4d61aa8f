/**
 * What the site needs of the `mqtt` connection's settings (that type parses them): the hub's
 * own part (`hub`), the topics and limits every hub of the site keeps to, and the kinds of
 * what a broker may send past those limits.
 */
import type { AddressPatterns, Overruns } from '../sdk/index.ts';
import type { KeySource } from '../broker/signing.ts';
import type { TopicLayout } from '../broker/topics.ts';

export interface HubSettings {
  readonly id: string;
  readonly share: AddressPatterns;
  /** The redundancy group, if any (R-B1). */
  readonly group: string | undefined;
  readonly failover: 'auto' | 'manual';
  /** The hubs of the group, when the flow lists them: no other hub's role record counts. */
  readonly members: readonly string[] | undefined;
  /** Undefined only in a flow file with a mistake: `diagnose` says so. */
  readonly key: KeySource | undefined;
  /** Who votes on the group's lease, and where (UDP); undefined: the broker decides. */
  readonly voters: Readonly<Record<string, { readonly host: string; readonly port: number }>> | undefined;
  /** Who decides instead of the broker or voters, for a group of any size (R-EG1); undefined: not etcd. */
  readonly coordinator: { readonly etcd: EtcdCoordinatorSettings } | undefined;
}

/** `hub.coordinator.etcd` (R-EG1). */
export interface EtcdCoordinatorSettings {
  readonly endpoints: readonly string[];
  readonly leaseMs: number;
  readonly prefix: string;
}

/** A hub of a redundancy group: its settings with the group named. */
export type GroupHubSettings = HubSettings & { readonly group: string };

/** How much of the other hubs this hub shows at most (R-M5). */
export interface SiteLimits {
  readonly hubs: number;
  readonly connectionsPerHub: number;
  readonly parametersPerHub: number;
  /** Values held for parameters not shown yet. */
  readonly heldValues: number;
  /** The largest message taken from the broker. */
  readonly payloadBytes: number;
}

export interface SiteSettings {
  readonly hub: HubSettings;
  readonly layout: TopicLayout;
  readonly qos: 0 | 1 | 2;
  /** What this hub publishes besides what it shares (the bridge's patterns). */
  readonly publish: AddressPatterns;
  readonly limits: SiteLimits;
}

/** What other hubs may send past the limits, or that does not pass the site's checks, by kind. */
export const SITE_OVERRUN_KINDS = ['hubs', 'connections', 'parameters', 'held', 'unverified', 'replayed', 'refused'] as const;
export type SiteOverruns = Overruns<(typeof SITE_OVERRUN_KINDS)[number]>;
