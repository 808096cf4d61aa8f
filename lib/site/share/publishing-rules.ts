/**
 * Which of this hub's parameters it publishes on the broker and shares with the other hubs
 * (R-M5): what the bridge asks (`Publishing`). A parameter of a connection another hub owns,
 * or of one shown here from another hub, is never this hub's to publish.
 */
import type { Parameter } from '../../sdk/index.ts';
import type { MessageProperties } from '../../broker/broker-link.ts';
import type { RedundancyGroup } from '../group/group.ts';
import type { SiteChecks } from '../peers/checks.ts';
import type { NO_HUB, Publishing, REJECTED } from '../publishing.ts';
import type { SiteSettings } from '../settings.ts';
import type { Claims } from './claims.ts';
import type { Mirrors } from './mirrors.ts';
import { Tokens } from './tokens.ts';
import type { ValueBursts } from './value-bursts.ts';

export class PublishingRules implements Publishing {
  constructor(
    private readonly settings: SiteSettings,
    private readonly claims: Claims,
    private readonly mirrors: Mirrors,
    private readonly checks: SiteChecks,
    private readonly group: RedundancyGroup | undefined,
    private readonly bursts: ValueBursts,
    private readonly tokens: Tokens,
  ) {}

  /** Its own parameters that `publish` or `share` match, but none of a connection another hub owns. */
  publishes(parameter: Parameter): boolean {
    return (
      !parameter.mirrored &&
      !this.claims.refused.has(parameter.connectionId) &&
      (this.settings.publish.matches(parameter.address) || this.sharesWithHubs(parameter))
    );
  }

  /** True when the other hubs see (and may write) this parameter: `share` matches it, and its connection is this hub's. */
  sharesWithHubs(parameter: Parameter): boolean {
    const { connectionId } = parameter;
    return (
      !parameter.mirrored &&
      (this.settings.hub.share.matches(parameter.address) || this.groupRuns(connectionId)) &&
      !parameter.id.startsWith('_') &&
      !this.claims.refused.has(connectionId) &&
      !this.mirrors.has(connectionId)
    );
  }

  /** True for a connection only the active hub of this hub's group runs: the standbys show all of it, and carry it on at a takeover. */
  readonly groupRuns = (connectionId: string): boolean => this.group?.runsOnlyOnActive(connectionId) === true;

  isLocal(connectionId: string): boolean {
    return this.mirrors.isLocal(connectionId);
  }

  /**
   * Shared with the other hubs alone, and not a trigger (each fire counts): what `publish`
   * matches goes on its value topic at every change (R-M2), for the tools that read it.
   */
  gathers(parameter: Parameter): boolean {
    return parameter.type !== 'T' && this.sharesWithHubs(parameter) && !this.settings.publish.matches(parameter.address);
  }

  gather(parameter: Parameter, wire: string): boolean {
    return this.bursts.take(parameter, wire, parameter.lastChange?.by ?? '');
  }

  /** Who changed it, and while this hub is its group's active hub, its fencing token (R-EG2); the signature adds which hub. */
  valueProperties(parameter: Parameter): Record<string, string> {
    const token = this.tokens.own();
    return { by: parameter.lastChange?.by ?? '', ...(token === undefined ? {} : { token: String(token) }) };
  }

  /** Why a value (or a burst) of another hub is not taken: its fencing token is lower than one seen of its group (R-EG2). */
  refusesValue(from: string, token: number | undefined): string | undefined {
    return this.tokens.check(from, token);
  }

  /** Why a write another hub forwarded is not made: its fencing token says it was meant for another driver (R-EG2). */
  refusesWrite(from: string, properties: MessageProperties): string | undefined {
    return this.tokens.checkWrite(from, Tokens.read(properties.userProperties?.['token']));
  }

  /** Who sent a write on a `set` topic: a hub's write counts only when it is bound to this hub's session now (R-AV3). */
  sender(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED {
    return this.checks.sender(topic, payload, properties);
  }
}
