/**
 * What `/metrics` shows of an mqtt connection: its link, its messages and refusals, and, when
 * hubs share its broker, the other hubs and the redundancy group with its voters, all read
 * from the connection's details.
 */
import { type ConnectionMetric, droppedMetric } from '../../sdk/index.ts';

export const mqttMetrics: readonly ConnectionMetric[] = [
  {
    name: 'patchbay_mqtt_connected',
    help: '1 while an mqtt connection is connected to its broker with every retained message in, 0 while it reconnects.',
    kind: 'gauge',
    samples: (details) => [{ value: details['up'] === true ? 1 : 0 }],
  },
  {
    name: 'patchbay_mqtt_messages_total',
    help: 'Messages an mqtt connection published to its broker and received from it.',
    kind: 'counter',
    labelNames: ['direction'],
    samples: (details) =>
      (['published', 'received'] as const).map((direction) => ({ labels: { direction }, value: Number(details[direction] ?? 0) })),
  },
  {
    name: 'patchbay_mqtt_refused_writes_total',
    help: 'Writes on set topics the connection refused: a payload that does not convert, a parameter not published, read-only or unknown.',
    kind: 'counter',
    samples: (details) => [{ value: Number(details['refusedWrites'] ?? 0) }],
  },
  {
    name: 'patchbay_mqtt_refused_tokens_total',
    help: 'Values, bursts and forwarded writes of another hub refused for their fencing token: lower than the highest of its group this hub has seen (a driver that lost the role), or a write meant for a later driver than this hub (R-EG2).',
    kind: 'counter',
    samples: (details) => (details['refusedTokens'] === undefined ? [] : [{ value: Number(details['refusedTokens']) }]),
  },
  droppedMetric(
    'patchbay_mqtt_dropped_messages_total',
    "What an mqtt connection dropped from the broker: unverified (no valid signature of a hub), replayed (a hub's message taken before, or bound to another hub or session), refused (a role record the group's rules do not allow), or past one of its limits.",
    'reason',
  ),
  groupGauge(
    'patchbay_group_active',
    'In a redundancy group: 1 while this hub is the active hub (it drives the devices), 0 while it is a standby.',
    (group) => (group.role === 'active' ? 1 : 0),
  ),
  groupGauge(
    'patchbay_group_epoch',
    'In a redundancy group: the latest epoch of its lease this hub knows; it grows by one at each takeover.',
    (group) => Number(group.epoch ?? 0),
  ),
  voterGauge(
    'patchbay_group_voter_reached',
    'In a redundancy group with voters: 1 for each voter that answered this hub within the last second, 0 for one that did not.',
    'reached',
  ),
  voterGauge(
    'patchbay_group_voter_granted',
    'In a redundancy group with voters: 1 for each voter whose last answer granted this hub the lease (the active hub has a majority of them), 0 otherwise.',
    'granted',
  ),
  coordinatorMetric(
    'patchbay_group_etcd_elections_total',
    'In a redundancy group on etcd: the times this hub won the election and took over (R-EG4).',
    'counter',
    (etcd) => etcd.elections,
  ),
  coordinatorMetric(
    'patchbay_group_etcd_renewals_total',
    "In a redundancy group on etcd: the keep-alives of this hub's lease that etcd answered (R-EG4).",
    'counter',
    (etcd) => etcd.renewals,
  ),
  coordinatorMetric(
    'patchbay_group_etcd_lease_left_seconds',
    "In a redundancy group on etcd: how long this hub's lease is still proven by its own clock; 0 on a hub that holds none (R-EG2).",
    'gauge',
    (etcd) => etcd.leaseLeftMs / 1000,
  ),
  {
    name: 'patchbay_mqtt_hubs',
    help: 'Other hubs an mqtt connection with `hub` knows on its broker, by presence.',
    kind: 'gauge',
    labelNames: ['state'],
    samples: (details) => {
      const hubs = details['hubs'];
      if (hubs === undefined || hubs === null || typeof hubs !== 'object') return [];
      const online = Object.values(hubs as Record<string, { online?: boolean }>).filter((h) => h.online === true).length;
      return [
        { labels: { state: 'online' }, value: online },
        { labels: { state: 'away' }, value: Object.keys(hubs).length - online },
      ];
    },
  },
];

/** A gauge of each voter of the hub's group, from `details.redundancy.voters`; no sample without voters. */
function voterGauge(name: string, help: string, field: 'reached' | 'granted'): ConnectionMetric {
  return {
    name,
    help,
    kind: 'gauge',
    labelNames: ['group', 'voter'],
    samples: (details) => {
      const group = details['redundancy'] as
        | { group?: string; voters?: Record<string, { reached: boolean; granted: boolean }> }
        | undefined;
      const name = group?.group;
      if (!name || !group.voters) return [];
      return Object.entries(group.voters).map(([voter, seen]) => ({ labels: { group: name, voter }, value: seen[field] ? 1 : 0 }));
    },
  };
}

/** A sample of the hub's group on etcd, from `details.redundancy.coordinator`; none in a group without etcd. */
function coordinatorMetric(
  name: string,
  help: string,
  kind: 'gauge' | 'counter',
  value: (etcd: { elections: number; renewals: number; leaseLeftMs: number }) => number,
): ConnectionMetric {
  return {
    name,
    help,
    kind,
    labelNames: ['group'],
    samples: (details) => {
      const group = details['redundancy'] as
        | { group?: string; coordinator?: { elections: number; renewals: number; leaseLeftMs: number } }
        | undefined;
      return group?.group && group.coordinator ? [{ labels: { group: group.group }, value: value(group.coordinator) }] : [];
    },
  };
}

/** A gauge of the hub's redundancy group, from the connection's `details.redundancy`; no sample outside a group. */
function groupGauge(name: string, help: string, value: (group: { role?: string; epoch?: number }) => number): ConnectionMetric {
  return {
    name,
    help,
    kind: 'gauge',
    labelNames: ['group'],
    samples: (details) => {
      const group = details['redundancy'] as { group?: string; role?: string; epoch?: number } | undefined;
      return group?.group ? [{ labels: { group: group.group }, value: value(group) }] : [];
    },
  };
}
