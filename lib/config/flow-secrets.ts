/**
 * The secrets of a flow file, kept from an editor (R-ED2): the text an editor is shown has
 * each literal secret replaced by `HIDDEN` (a URL's user info too), and a text it sends back
 * has each `HIDDEN` put back to the secret at the same place in the file as it is — so a save
 * never writes the mask, and never needs the secret. What is a secret is what the hub masks
 * in `/connections` (lib/core/secrets.ts). Shown as written: an empty value ("not set"), a
 * `${…}` placeholder (it names a variable; a default it gives a secret is hidden), a
 * `sha256:` token (a hash). A secret put back follows its list entry by `name` or `id`. The
 * text is changed only where a secret stands: comments, order and quoting stay as written.
 */
import { JsonArrayNode, JsonObjectNode, JsonPrimitiveNode, type JsonValueNode } from '@croct/json5-parser';
import type { Issue } from '../core/issue.ts';
import { hiddenInText, holdsSecret } from '../core/secrets.ts';
import { FlowDocument } from './flow-text.ts';
import { quoted } from './json5-text.ts';

/** What a browser sees in place of a secret. */
export const HIDDEN = '••••••';

/** A placeholder with a default: `${NAME:-default}`. */
const PLACEHOLDER_DEFAULT = /\$\{([A-Za-z_][A-Za-z0-9_]*):-([^}]*)\}/g;

type Path = readonly (string | number)[];

/** A string value of the document, where it stands, and where its literal is in the text. */
interface StringAt {
  readonly path: Path;
  /**
   * Where it stands by what it belongs to: the path, with each list entry that has a `name`
   * or an `id` named by it instead of its place (`tokens[#ops].token`), so that a secret put
   * back follows its entry when entries are reordered or removed, never its old place.
   */
  readonly identity: string;
  readonly value: string;
  /** The key it is the value of (of its array, for an element), and the key of the object holding it. */
  readonly key: string;
  readonly parentKey: string;
  /** Its literal in the text: from `start` to `end`, quoted with `quote`. */
  readonly start: number;
  readonly end: number;
  readonly quote: string;
  /** A secret written as a number or a boolean (`password: 123456`): `value` is its literal, put back unquoted. */
  readonly bare?: true;
}

/** `value` as an editor may see it: hidden when it is a secret, its URLs' user info hidden otherwise. */
function shown(value: string, key: string, parentKey: string): string {
  const secret = holdsSecret(key, parentKey);
  // A placeholder names a variable, but its default (`${PASS:-…}`) may be the secret itself.
  if (value.includes('${'))
    return secret
      ? value.replace(PLACEHOLDER_DEFAULT, (whole, name: string, fallback: string) => (fallback ? `\${${name}:-${HIDDEN}}` : whole))
      : value;
  if (value === '' || value.startsWith('sha256:')) return value;
  if (secret) return HIDDEN;
  return hiddenInText(value, HIDDEN);
}

/**
 * A secret's key and its literal, in a text the lossless parser cannot read: a file with a
 * mistake. What it finds is hidden all the same: better an edit refused than a secret sent.
 */
const KEYED_LITERAL = /(["']?)([\w$-]+)\1(\s*:\s*)(['"])((?:\\.|(?!\4)[^\\\n])*)\4/g;
/** A key and a number or boolean after it: a secret of that shape is hidden all the same. */
const KEYED_BARE = /(["']?)([\w$-]+)\1(\s*:\s*)([-+]?(?:\d[\w.+-]*|\.\d[\w.+-]*|Infinity|NaN)|true|false)(?=\s*[,}\n/])/g;

/** `text` with every secret hidden; a text the parser cannot read is hidden by the shape of its lines (KEYED_LITERAL). */
export function hideSecrets(text: string): string {
  const document = FlowDocument.parse(text);
  if (!document)
    return hiddenInText(
      text
        .replace(KEYED_LITERAL, (whole, keyQuote: string, key: string, colon: string, quote: string, body: string) => {
          const masked = holdsSecret(key, '') ? shown(body, key, '') : body;
          return masked === body ? whole : `${keyQuote}${key}${keyQuote}${colon}${quote}${masked}${quote}`;
        })
        .replace(KEYED_BARE, (whole, keyQuote: string, key: string, colon: string) =>
          holdsSecret(key, '') ? `${keyQuote}${key}${keyQuote}${colon}'${HIDDEN}'` : whole,
        ),
      HIDDEN,
    );
  const changes: Change[] = [];
  for (const at of strings(document)) {
    const masked = shown(at.value, at.key, at.parentKey);
    if (masked !== at.value) changes.push({ at, value: masked });
  }
  return applied(text, changes);
}

/**
 * `edited` with each hidden secret put back from `current` (the file as it is): a value that
 * still reads as `current`'s would be shown at the same path is given `current`'s value. A
 * `HIDDEN` with no secret to put back (a connection renamed, a token added as `HIDDEN`) is a
 * mistake at its path: type the value. So is one whose connection now sends elsewhere (its
 * `url`, `host` or `port`… changed): a secret goes only where it went, or is typed again.
 */
export function restoreSecrets(edited: string, current: string): { text: string; issues: readonly Issue[] } {
  if (!edited.includes(HIDDEN)) return { text: edited, issues: [] };
  const document = FlowDocument.parse(edited);
  if (!document) {
    const message = 'the hidden secrets cannot be put back: the text has a mistake; correct it, or type the secrets';
    return { text: edited, issues: [{ path: [], message }] };
  }
  const known = new Map<string, StringAt>();
  const before = FlowDocument.parse(current);
  if (before) for (const at of strings(before)) known.set(at.identity, at);
  const issues: Issue[] = [];
  const changes: Change[] = [];
  const moved = movedDestinations(before?.root.toJSON(), document.root.toJSON());
  for (const at of strings(document)) {
    if (!at.value.includes(HIDDEN)) continue;
    const was = known.get(at.identity);
    const [scope, id] = at.path;
    const elsewhere = scope === 'connections' ? moved.get(String(id)) : undefined;
    if (was && elsewhere)
      issues.push({
        path: at.path,
        message: `its connection's ${elsewhere} changed: a hidden secret is not sent to a new place; type its value`,
      });
    else if (was && shown(was.value, was.key, was.parentKey) === at.value)
      changes.push({ at, value: was.value, ...(was.bare ? { bare: true as const } : {}) });
    else issues.push({ path: at.path, message: 'a hidden secret with none to put back here: type its value' });
  }
  return { text: applied(edited, changes), issues };
}

/**
 * The last word of a setting's name that says where a connection sends (and so its secrets):
 * a Companion module's config names its device `ip` as often as `host`. Not where it listens
 * (`bindIp`).
 */
const DESTINATION_WORDS = new Set(['url', 'uri', 'host', 'hostname', 'server', 'broker', 'endpoint', 'ip', 'address']);
const LISTENING = /^(bind|listen)/i;

/** For each connection of `edited` whose destinations differ from `current`'s, the names of those that changed. */
function movedDestinations(current: unknown, edited: unknown): Map<string, string> {
  const moved = new Map<string, string>();
  const before = record(record(current)['connections']);
  for (const [id, settings] of Object.entries(record(record(edited)['connections']))) {
    const was = destinations(before[id]);
    const now = destinations(settings);
    const changed = [...new Set([...was.keys(), ...now.keys()])].filter((key) => was.get(key) !== now.get(key));
    if (changed.length > 0) moved.set(id, changed.map((key) => key.slice(key.lastIndexOf('.') + 1)).join(', '));
  }
  return moved;
}

const lastWord = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .at(-1) ?? '';

/**
 * A connection's settings that say where it sends, by their path, at any depth (a request's
 * `url` too); a `port` beside a host is one of them, a port a server listens on is not.
 */
function destinations(value: unknown, path = '', found = new Map<string, string>()): Map<string, string> {
  if (typeof value !== 'object' || value === null) return found;
  const entries = Object.entries(value);
  const names = (key: string) => !LISTENING.test(key) && DESTINATION_WORDS.has(lastWord(key));
  const sends = entries.some(([key]) => names(key));
  for (const [key, inner] of entries) {
    const at = `${path}.${key}`;
    const destination = names(key) || (sends && lastWord(key) === 'port');
    // Compared as an editor sees them: a URL's user info is hidden on one side already.
    if (destination && (typeof inner === 'string' || typeof inner === 'number')) found.set(at, hiddenInText(String(inner), HIDDEN));
    else destinations(inner, at, found);
  }
  return found;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

interface Change {
  readonly at: StringAt;
  readonly value: string;
  /** Written as it is, not quoted: a number or a boolean put back. */
  readonly bare?: true;
}

/** `text` with each change's literal written anew in its own quotes; the rest as it was. */
function applied(text: string, changes: readonly Change[]): string {
  let result = text;
  for (const { at, value, bare } of [...changes].sort((x, y) => y.at.start - x.at.start))
    result = result.slice(0, at.start) + (bare ? value : quoted(value, at.quote)) + result.slice(at.end);
  return result;
}

/** Every string value of the document, depth first, with its literal's place in the file's text. */
function strings(document: FlowDocument): Generator<StringAt> {
  return stringsBelow(document, document.root);
}

function* stringsBelow(
  document: FlowDocument,
  node: JsonValueNode,
  path: Path = [],
  key = '',
  parentKey = '',
  identity = '',
): Generator<StringAt> {
  const entries: [string | number, string, JsonValueNode, string, string][] =
    node instanceof JsonObjectNode
      ? node.properties.map((property) => {
          const name = String(property.key.toJSON());
          return [name, `${identity}.${JSON.stringify(name)}`, property.value, name, key];
        })
      : node instanceof JsonArrayNode
        ? node.elements.map((element, index) => [index, `${identity}[${entryName(element) ?? index}]`, element, key, parentKey])
        : [];
  for (const [step, stepIdentity, value, valueKey, valueParentKey] of entries) {
    // A number or a boolean is a string of the text where it is a secret: hidden alike.
    const bare =
      value instanceof JsonPrimitiveNode &&
      (typeof value.value === 'number' || typeof value.value === 'boolean') &&
      holdsSecret(valueKey, valueParentKey);
    if (value instanceof JsonPrimitiveNode && (typeof value.value === 'string' || bare)) {
      const { start, end } = value.token.location;
      yield {
        path: [...path, step],
        identity: stepIdentity,
        value: bare ? value.token.value : String(value.value),
        key: valueKey,
        parentKey: valueParentKey,
        start: document.fileOffset(start.index),
        end: document.fileOffset(end.index),
        quote: value.token.value[0] ?? '"',
        ...(bare ? { bare: true as const } : {}),
      };
    } else yield* stringsBelow(document, value, [...path, step], valueKey, valueParentKey, stepIdentity);
  }
}

/** What a list entry is called: its `name` or `id`, as `#"ops"`; undefined for one without. */
function entryName(element: JsonValueNode): string | undefined {
  if (!(element instanceof JsonObjectNode)) return undefined;
  for (const key of ['name', 'id']) {
    if (!element.has(key)) continue;
    const value = element.get(key);
    if (value instanceof JsonPrimitiveNode && typeof value.value === 'string') return `#${JSON.stringify(value.value)}`;
  }
  return undefined;
}
