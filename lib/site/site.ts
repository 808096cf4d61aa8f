/**
 * The site (R-M5, R-M6, R-B1–B5, R-AV1–AV3): hubs sharing one broker, each showing the others'
 * connections; those of a redundancy group standing in for one another; and the group's vote.
 * An `mqtt` connection with `hub` carries one, over its broker link.
 *
 * Its parts are built here, each after what it calls, and handed it: `peers/` (the other hubs
 * as heard, and the checks every hub message passes) below `group/` (this hub's role and its
 * lease) below `share/` (who owns which connection, and what this hub shows of the others).
 * Events go up the same way: the group's role changes reach the share as an Observable, and
 * the share's changes of what it publishes reach the bridge as Observables. The broker's
 * messages come in here and go to the part whose topic they are on.
 */
import { statSync } from 'node:fs';
import type { IClientPublishOptions, ISubscriptionMap } from 'mqtt';
import { HubError, SparseLog } from '../sdk/index.ts';
import type { SiteContext } from './hub-port.ts';
import type { BrokerLink, MessageProperties } from '../broker/broker-link.ts';
import { type KeptMarks, loadSiteKey, nextStart, Signer, Verifier } from '../broker/signing.ts';
import type { HubTopic, TopicLayout } from '../broker/topics.ts';
import { GroupDirectory } from './group/directory.ts';
import { RedundancyGroup } from './group/group.ts';
import { readRecord, type RoleRecord } from './group/record.ts';
import { SiteChecks, type SiteTrust } from './peers/checks.ts';
import { Corrections } from './peers/corrections.ts';
import { OtherHubs } from './peers/others.ts';
import type { SiteOverruns, SiteSettings } from './settings.ts';
import { Claims } from './share/claims.ts';
import { EarlyValues } from './share/early-values.ts';
import { Mirrors } from './share/mirrors.ts';
import { PublishingRules } from './share/publishing-rules.ts';
import { RemoteWrites } from './share/remote-writes.ts';
import { SiteShare } from './share/site-share.ts';
import { Tokens } from './share/tokens.ts';
import { ValueBursts } from './share/value-bursts.ts';

/** What a stopping site publishes before the link closes. */
export type Goodbye = { topic: string; payload: string; options: IClientPublishOptions }[];

/**
 * The site key at work for this hub (R-AV3): what signs its messages and checks the others',
 * with the counters and marks of what was taken kept in the connection's records across
 * restarts. Fails when the key cannot be read.
 */
export function siteTrust(context: SiteContext, settings: SiteSettings): { trust: SiteTrust; key: Buffer } {
  const { hub, layout } = settings;
  const siteKey = hub.key ? loadSiteKey(hub.key) : undefined;
  if (!siteKey?.ok) throw siteKey?.error ?? new HubError('PB_START_FAILED', 'sharing with other hubs needs a site key (hub.key)');
  if (hub.key && 'file' in hub.key && (statSync(hub.key.file).mode & 0o077) !== 0)
    context.log.warn(`the site key file ${hub.key.file} can be read by other users of this machine: chmod 600 it`);
  // Counters grow across restarts, and what was taken on retained topics is remembered (R-AV3).
  const start = nextStart(context.records.get('signer start'));
  context.records.set('signer start', start);
  const marks: KeptMarks = {
    keeps: (topic) => {
      const kind = layout.hubTopic(topic)?.kind;
      return kind !== undefined && kind !== 'answers';
    },
    get: (key) => {
      const kept = context.records.get(`mark ${key.replace('\0', ' ')}`);
      return typeof kept === 'string' ? kept : undefined;
    },
    set: (key, n) => context.records.set(`mark ${key.replace('\0', ' ')}`, n),
  };
  return { trust: { signer: new Signer(siteKey.value, hub.id, start), verifier: new Verifier(siteKey.value, marks) }, key: siteKey.value };
}

export class Site {
  /** What this hub publishes and shows of the other hubs, and when that changes. */
  readonly share: SiteShare;
  /** Which of its parameters this hub publishes and shares: the bridge's `Publishing`. */
  readonly publishing: PublishingRules;
  /** Shared values that change fast, sent in bursts; `settle$` says which value topics to tell. */
  readonly bursts: ValueBursts;
  private readonly group: RedundancyGroup | undefined;
  private readonly otherHubs: OtherHubs;
  private readonly checks: SiteChecks;
  private readonly corrections: Corrections;
  private readonly directory = new GroupDirectory();
  private readonly early: EarlyValues;
  private readonly writes: RemoteWrites;
  private readonly tokens: Tokens;

  /** The last will: this hub's presence, gone (the link signs it). */
  static will(layout: TopicLayout, hubId: string): { topic: string; payload: string } {
    return { topic: layout.presence(hubId), payload: JSON.stringify({ online: false }) };
  }

  constructor(
    context: SiteContext,
    private readonly settings: SiteSettings,
    link: BrokerLink,
    trust: SiteTrust,
    overruns: SiteOverruns,
  ) {
    const { scheduler } = context;
    const { hub, limits, layout, qos } = settings;
    this.otherHubs = new OtherHubs(limits, overruns, context.log);
    const others = this.otherHubs.byId;
    this.checks = new SiteChecks(hub.id, trust, overruns, new SparseLog(context.log, scheduler, 'ignored'), context.records);
    this.corrections = new Corrections(scheduler, () => link.up);
    this.early = new EarlyValues(scheduler, limits.heldValues, overruns);
    // Fencing tokens (R-EG2): what this hub's group tells it comes in once the group is built, below.
    const tokens = new Tokens(hub.group, this.directory, () => this.group);
    this.tokens = tokens;
    this.bursts = new ValueBursts(settings, link, this.checks, scheduler, context.log, () => tokens.own());
    this.writes = new RemoteWrites(hub.id, link, others, layout, qos, scheduler, (owner) => tokens.forWriteTo(owner));
    const writes = this.writes;
    const mirrors = new Mirrors(context, others, this.early, (...write) => writes.send(...write));
    const { checks, corrections, directory } = this;
    this.group =
      hub.group === undefined
        ? undefined
        : new RedundancyGroup(context, settings, { ...hub, group: hub.group }, link, {
            directory,
            checks,
            corrections,
            others,
            shown: mirrors,
          });
    const group = this.group;
    const claims = new Claims(context, { others, directory, group, isLocal: (connectionId) => mirrors.isLocal(connectionId) });
    this.publishing = new PublishingRules(settings, claims, mirrors, checks, group, this.bursts, tokens);
    this.share = new SiteShare(context, settings, link, {
      checks,
      corrections,
      otherHubs: this.otherHubs,
      claims,
      early: this.early,
      mirrors,
      writes,
      rules: this.publishing,
      group,
    });
  }

  /** With `hub.voters`: the group's vote runs from now, whatever the link does (R-AV1). Rejects when its port cannot be had. */
  async startVoting(siteKey: Buffer): Promise<void> {
    await this.group?.startVoting(siteKey);
  }

  subscriptions(): ISubscriptionMap {
    return {
      ...this.share.subscriptions(),
      // In a group, every hub's renewals: a standby takes over from an active hub that fell silent.
      ...(this.group ? { [this.settings.layout.leases]: { qos: 1, nl: true } } : {}),
    };
  }

  /** Connected, every retained message in. */
  up(): void {
    this.share.up();
    this.bursts.up();
    this.group?.up();
  }

  down(reason: string): void {
    this.bursts.down();
    this.group?.down(reason);
    this.share.down(reason);
  }

  /** Stops; what to publish before disconnecting: this hub holds no lease, and is gone. */
  stop(): Goodbye {
    const released = this.group?.stop() ?? [];
    const gone = this.share.stop();
    this.early.stop();
    this.bursts.stop();
    this.corrections.stop();
    this.writes.stop();
    return [...released, ...gone];
  }

  details(): Record<string, unknown> {
    return {
      ...this.share.details(),
      refusedTokens: this.tokens.refused,
      ...(this.group ? { redundancy: this.group.details() } : {}),
    };
  }

  /** Takes a message on the site's topics (hubs, leases, shared values and their bursts); false for anything else. */
  message(topic: string, payload: Buffer, properties: MessageProperties): boolean {
    const { layout } = this.settings;
    const renewing = layout.leaseOf(topic);
    if (renewing !== undefined) {
      if (this.group && this.checks.signedBy(topic, payload, properties) === renewing) {
        const confirmed = this.group.renewal(topic, renewing, payload);
        if (confirmed) this.take(renewing, confirmed);
      }
      return true;
    }
    const bursting = layout.burstOf(topic);
    if (bursting !== undefined) {
      if (this.otherHubs.admits(bursting)) this.share.burst(bursting, topic, payload, properties);
      return true;
    }
    const hubTopic = layout.hubTopic(topic);
    if (hubTopic) {
      this.hubMessage(hubTopic, topic, payload, properties);
      return true;
    }
    const target = layout.parameterOf(topic);
    if (target?.kind !== 'val') return false;
    this.share.value(topic, target.address, payload, properties);
    return true;
  }

  private hubMessage(hubTopic: HubTopic, topic: string, payload: Buffer, properties: MessageProperties): void {
    const own = hubTopic.hubId === this.settings.hub.id;
    // Answers to the writes of other hubs are theirs to read.
    if (hubTopic.kind === 'answers' && !own) return;
    const from = this.checks.signedBy(topic, payload, properties);
    const byItsHub = from === hubTopic.hubId;
    if (hubTopic.kind === 'role') {
      if (byItsHub) this.roleRecord(topic, from, payload, properties);
    } else if (hubTopic.kind === 'records') {
      if (byItsHub && this.otherHubs.admits(from)) this.group?.connectionRecords(from, hubTopic.connectionId, payload);
    } else if (own) this.share.ownTopic(hubTopic.kind, topic, from, payload, properties);
    else if (byItsHub && this.otherHubs.admits(from)) {
      if (hubTopic.kind === 'presence') this.presence(from, payload);
      else if (hubTopic.kind === 'connections') this.share.described(from, payload);
    }
  }

  /** A hub's role record, signed by it: taken as its group's rules allow (the group decides for its own hubs). */
  private roleRecord(topic: string, hubId: string, payload: Buffer, properties: MessageProperties): void {
    const record = readRecord(payload);
    if (!record) return;
    if (this.group && !this.group.admits(topic, hubId, record, properties)) return;
    this.take(hubId, record);
  }

  /** A role record taken: who holds each lease, and so who owns which connection, may have changed. */
  private take(hubId: string, record: RoleRecord): void {
    const changed = this.directory.heard(hubId, record);
    this.tokens.heard(record.group, record.epoch);
    this.group?.record(hubId, record);
    if (changed) this.share.ownersChanged();
  }

  /** A hub came or went: its group (when it is of this hub's) and what this hub shows of it are told. */
  private presence(hubId: string, payload: Buffer): void {
    if (!this.otherHubs.presence(hubId, payload)) return;
    const online = this.otherHubs.byId.get(hubId)?.online === true;
    this.group?.presence(hubId, online);
    this.share.presence(hubId, online);
  }
}
