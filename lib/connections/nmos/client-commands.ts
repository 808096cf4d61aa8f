/**
 * What an events WebSocket client may send (IS-07 v1.0): `subscription` with the ids of the
 * sources it wants, or `health` with its time. Parsed once at the edge into typed values;
 * anything else is a reason, never a throw.
 */

export type ClientCommand =
  | { readonly command: 'subscription'; readonly sources: readonly string[] }
  | { readonly command: 'health'; readonly timestamp: string };

const TAI = /^[0-9]+:[0-9]+$/;

export function parseClientCommand(text: string, maxSources: number): ClientCommand | { readonly reason: string } {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { reason: 'not JSON' };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { reason: 'not a JSON object' };
  const { command, sources, timestamp } = message as Record<string, unknown>;
  if (command === 'health') {
    if (typeof timestamp !== 'string' || !TAI.test(timestamp))
      return { reason: 'a health command without a `<seconds>:<nanoseconds>` timestamp' };
    return { command, timestamp };
  }
  if (command === 'subscription') {
    if (!Array.isArray(sources) || !sources.every((id): id is string => typeof id === 'string'))
      return { reason: 'a subscription without a list of source ids' };
    if (sources.length > maxSources) return { reason: `a subscription to ${sources.length} sources, more than the ${maxSources} served` };
    return { command, sources: [...new Set(sources)] };
  }
  return { reason: `an unknown command ${JSON.stringify(String(command)).slice(0, 64)}` };
}
