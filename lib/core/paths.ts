import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a path in a message ends: white space, a quote, a bracket, a comma, a semicolon or a colon. */
const end = `\\s'"\`()\\[\\]{},;:`;

/**
 * Rewrites the absolute file-system paths in a message relative to `folder` (the flow file
 * folder), for what is served over HTTP: a status reason or problem must not tell an
 * anonymous client how the machine is laid out, but relative to the flow file it still
 * tells the operator which file is meant.
 *
 * A path is found two ways: anything starting with `folder` itself (spaces included), and
 * any other token starting with `/<entry>` where `<entry>` is one of `roots`, the entries
 * of this machine's root folder (`/home`, `/tmp`, `/srv` …). HTTP paths such as
 * `/parameters` name no root entry and stay. `file://` URLs are taken as their paths.
 * A path in `asWritten` (one the flow file writes and the hub opens as written, a serial
 * port) stays as it is: relative to the folder it would name a file the hub never opens.
 */
export function relativePaths(folder: string, roots: readonly string[], asWritten: readonly string[] = []): (text: string) => string {
  const rel = (path: string) => relative(folder, path) || '.';
  const fileUrls = new RegExp(`file://[^${end}]+`, 'g');
  const inFolder = new RegExp(`${escapeRegex(folder)}(?=/|[${end}]|$)[^${end}]*`, 'g');
  const entries = roots.map(escapeRegex).join('|');
  const anywhere = entries ? new RegExp(`(?<=^|[${end}])/(?:${entries})(?=/|[${end}]|$)[^${end}]*`, 'g') : undefined;
  const rewrite = (text: string) => {
    const result = isAbsolute(folder) ? text.replace(inFolder, rel) : text;
    return anywhere ? result.replace(anywhere, rel) : result;
  };
  // Longest first, so a kept path is never cut short by another that begins it.
  const keptPaths = [...new Set(asWritten)].sort((a, b) => b.length - a.length).map(escapeRegex);
  const kept = keptPaths.length > 0 ? new RegExp(`(?<=^|[${end}])(?:${keptPaths.join('|')})(?=[${end}]|$)`, 'g') : undefined;
  return (text) => {
    const result = text.replace(fileUrls, (url) => {
      try {
        return fileURLToPath(url);
      } catch {
        return url;
      }
    });
    if (!kept) return rewrite(result);
    // Only the text between the kept paths is rewritten.
    let served = '';
    let last = 0;
    for (const found of result.matchAll(kept)) {
      served += rewrite(result.slice(last, found.index)) + found[0];
      last = found.index + found[0].length;
    }
    return served + rewrite(result.slice(last));
  };
}

/** `value` with `rewrite` applied to every string in it, however deep. */
export function mapStrings<T>(value: T, rewrite: (text: string) => string): T {
  if (typeof value === 'string') return rewrite(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, rewrite)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, rewrite)])) as T;
  return value;
}
