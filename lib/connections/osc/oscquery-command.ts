/**
 * A WebSocket text of an OSCQuery client, parsed once at the edge: `{"COMMAND": "LISTEN" |
 * "IGNORE", "DATA": "/<address>"}`. Anything else is a reason, never a throw: the text comes
 * from anyone who reaches the port, and a throw inside a uWS callback ends the hub (issue 60, 3).
 */
export type OscQueryCommand = { readonly command: 'LISTEN' | 'IGNORE'; readonly path: string };

/** The command `text` holds, or why it holds none; other commands (PATH_CHANGED…) are for clients, and say so. */
export function parseOscQueryCommand(text: string): OscQueryCommand | { readonly reason: string } {
  let asked: unknown;
  try {
    asked = JSON.parse(text);
  } catch {
    return { reason: 'not JSON' };
  }
  if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) return { reason: 'not a JSON object' };
  const { COMMAND: command, DATA: path } = asked as Record<string, unknown>;
  if (command !== 'LISTEN' && command !== 'IGNORE')
    return { reason: `COMMAND ${String(JSON.stringify(command)).slice(0, 40)} is neither LISTEN nor IGNORE` };
  if (typeof path !== 'string' || !path.startsWith('/')) return { reason: `${command} without a path in DATA` };
  return { command, path };
}
