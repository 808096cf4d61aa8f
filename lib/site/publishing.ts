/**
 * What the bridge asks of whoever decides what this hub publishes: the mqtt connection's own
 * patterns when it shares nothing, the site's share when it does (share/site-share.ts).
 */
import type { Parameter } from '../sdk/index.ts';
import type { MessageProperties } from '../broker/broker-link.ts';

/** Who decides what is published: the patterns, and for shared parameters the owner of their connection. */
export interface Publishing {
  /** True when this hub publishes the parameter and takes writes for it from the broker. */
  publishes(parameter: Parameter): boolean;
  /** True when the connection runs on this hub (not a mirror of another's). */
  isLocal(connectionId: string): boolean;
  /** User properties of value messages (the hub and who changed it), for hubs sharing the broker. */
  valueProperties?(parameter: Parameter): Record<string, string>;
  /**
   * Who sent a message, for hubs sharing the broker: the hub whose signature it carries, `none`
   * when it carries none (a plain client), `rejected` when it carries one that does not verify.
   */
  sender?(topic: string, payload: Buffer, properties: MessageProperties): string | typeof NO_HUB | typeof REJECTED;
  /** Why a write another hub forwarded is refused (its fencing token is not the driver's, R-EG2); undefined: it is made. */
  refusesWrite?(from: string, properties: MessageProperties): string | undefined;
  /** True when the other hubs may write the parameter: this hub shares it with them. */
  sharesWithHubs?(parameter: Parameter): boolean;
  /** True when the parameter's changes may go to the other hubs in bursts (share/value-bursts.ts): asked when it is followed. */
  gathers?(parameter: Parameter): boolean;
  /** True when the change (`wire`, its string form) went in a burst; false: publish it on its value topic now. */
  gather?(parameter: Parameter, wire: string): boolean;
}

export const NO_HUB = Symbol('no hub');
export const REJECTED = Symbol('rejected');
