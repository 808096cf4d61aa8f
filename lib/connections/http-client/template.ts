/**
 * Text with `{{connection/parameter}}` placeholders in it (a request's URL, headers, body):
 * read once from the settings, filled with the parameters' values each time it is sent.
 */
import { type Issue, type Value, parseAddress } from '../../sdk/index.ts';
import { Failure } from './failure.ts';

/** Text with `{{address}}` in it, read once: literal parts, and the addresses between them. */
export interface Template {
  readonly parts: readonly string[];
  readonly addresses: readonly string[];
}

export const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

export function templateOf(text: string, path: readonly (string | number)[], issues: Issue[]): Template {
  const parts: string[] = [];
  const addresses: string[] = [];
  let last = 0;
  for (const found of text.matchAll(PLACEHOLDER)) {
    const address = found[1] as string;
    const parsed = parseAddress(address);
    if (!parsed.ok) issues.push({ path, message: `{{${address}}}: ${parsed.error.message}` });
    parts.push(text.slice(last, found.index));
    addresses.push(address);
    last = found.index + found[0].length;
  }
  parts.push(text.slice(last));
  return { parts, addresses };
}

/** A template with each `{{address}}` replaced by that parameter's text; fails on an unknown value. */
export function fill(
  template: Template,
  valueAt: (address: string) => Value | undefined,
  encode: (text: string) => string,
  inPath: readonly boolean[] = [],
): string {
  let text = template.parts[0] as string;
  template.addresses.forEach((address, i) => {
    const value = valueAt(address);
    if (value === undefined) throw new Failure('PB_STATE_UNKNOWN', `{{${address}}} has no value (yet)`);
    const encoded = encode(String(value));
    // A path segment of `.` or `..` climbs the path (a `%` is encoded, so `%2e` stays text).
    if (inPath[i] && /^\.{1,2}$/.test(encoded))
      throw new Failure(
        'PB_CONVERSION',
        `{{${address}}} is "${String(value)}": a value in a URL's path cannot be . or .. (it would climb the path)`,
      );
    text += encoded + template.parts[i + 1];
  });
  return text;
}
