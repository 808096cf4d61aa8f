/**
 * A WebSocket text of an OSCQuery client, parsed once at the edge: `{"COMMAND": "LISTEN" |
 * "IGNORE", "DATA": "/<address>"}`. Anything else is a reason, never a throw: the text comes
 * from anyone who reaches the port, and a throw inside a uWS callback ends the hub (issue 60, 3).
 */
export type OscQueryCommand = {
    readonly command: 'LISTEN' | 'IGNORE';
    readonly path: string;
};
/** The command `text` holds, or why it holds none; other commands (PATH_CHANGED…) are for clients, and say so. */
export declare function parseOscQueryCommand(text: string): OscQueryCommand | {
    readonly reason: string;
};
