/**
 * Who may reach the OSCQuery server (issue 60, 12), by the rest-api's rules (hosts.ts,
 * origins.ts): a request sent to a name that is not one of this machine's is refused (a
 * page whose name was rebound to the hub's address sends its own name), and so is one a
 * page of an origin not in `oscQuery.origins` sent — its WebSocket would read every exposed
 * value and write the writable ones. Native tools (TouchDesigner, Chataigne, the `oscquery`
 * package) send no `Origin` and are let in.
 */
import type { CodedError } from '../../http/respond.ts';
import { HostAllowList } from '../../http/hosts.ts';
import { OriginPolicy } from '../../http/origins.ts';

/** A request's headers that the gate reads. */
export interface Knock {
  readonly host: string;
  readonly origin: string;
  readonly fetchSite: string;
}

/** What the gate says: the refusal, or the origin to name in CORS headers (an allowed page's). */
export type Verdict = { readonly refused: CodedError } | { readonly refused?: undefined; readonly cors: string | undefined };

export class OscQueryGate {
  private readonly hosts: HostAllowList;
  private readonly origins: OriginPolicy;

  constructor(origins: readonly string[], hostnames: readonly string[], machine?: string) {
    this.hosts = new HostAllowList(hostnames, machine);
    this.origins = new OriginPolicy(origins, 'http');
  }

  judge({ host, origin, fetchSite }: Knock): Verdict {
    // No browser leaves `Host` out, so a request without it cannot come from a rebound page.
    if (host !== '' && !this.hosts.allows(host))
      return {
        refused: {
          code: 'PB_BAD_HOST',
          message: `Host ${JSON.stringify(host.slice(0, 100))} is not a name of this hub; add it to oscQuery.hostnames if tools use it`,
        },
      };
    const verdict = this.origins.judge(origin, fetchSite, host);
    if (verdict.foreign)
      return {
        refused: {
          code: 'PB_CROSS_ORIGIN',
          message: `a page of ${origin === '' ? 'another site' : origin} may not use OSCQuery here; add its origin to oscQuery.origins if it should`,
        },
      };
    return { cors: verdict.cors };
  }
}
