/**
 * Who may reach the OSCQuery server (issue 60, 12), by the rest-api's rules (hosts.ts,
 * origins.ts): a request sent to a name that is not one of this machine's is refused (a
 * page whose name was rebound to the hub's address sends its own name), and so is one a
 * page of an origin not in `oscQuery.origins` sent — its WebSocket would read every exposed
 * value and write the writable ones. Native tools (TouchDesigner, Chataigne, the `oscquery`
 * package) send no `Origin` and are let in.
 */
import type { CodedError } from '../../http/respond.ts';
/** A request's headers that the gate reads. */
export interface Knock {
    readonly host: string;
    readonly origin: string;
    readonly fetchSite: string;
}
/** What the gate says: the refusal, or the origin to name in CORS headers (an allowed page's). */
export type Verdict = {
    readonly refused: CodedError;
} | {
    readonly refused?: undefined;
    readonly cors: string | undefined;
};
export declare class OscQueryGate {
    private readonly hosts;
    private readonly origins;
    constructor(origins: readonly string[], hostnames: readonly string[], machine?: string);
    judge({ host, origin, fetchSite }: Knock): Verdict;
}
