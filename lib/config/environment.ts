import type { Issue } from '../core/issue.ts';

/** A flow document with its `${NAME}` placeholders filled in from the environment. */
export interface Substituted {
  readonly document: unknown;
  /** Unset variables without a default, and `${` that starts no placeholder. */
  readonly issues: readonly Issue[];
  /**
   * The JSON pointers of the strings that were exactly one placeholder (`'${PORT:-17011}'`):
   * where the schema wants a number or a boolean there, the text is converted.
   */
  readonly whole: ReadonlySet<string>;
  /** The variables the document reads, set or not, each with where it is read first. */
  readonly read: ReadonlyMap<string, readonly (string | number)[]>;
}

const placeholderRe = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{/g;

/**
 * Fills in `${NAME}` and `${NAME:-default}` in every string value of a flow document (not
 * in keys), so one file serves several machines. The default applies when the variable is
 * unset or empty, as in a shell. `$${` is a literal `${`. An unset variable without a
 * default, or a `${` that is not a placeholder, is a mistake with its path.
 */
export function substituteEnvironment(document: unknown, env: Readonly<Record<string, string | undefined>>): Substituted {
  const issues: Issue[] = [];
  const whole = new Set<string>();
  const read = new Map<string, (string | number)[]>();
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('${')) return value;
      let single = false;
      const text = value.replace(placeholderRe, (match: string, name: string | undefined, fallback: string | undefined, offset: number) => {
        if (match === '$${') return '${';
        if (name === undefined) {
          issues.push({ path, message: 'expected ${NAME} or ${NAME:-default} after "${" (write $${ for a literal "${")' });
          return match;
        }
        if (!read.has(name)) read.set(name, path);
        single = offset === 0 && match.length === value.length;
        const set = env[name];
        if (set !== undefined && set !== '') return set;
        if (fallback !== undefined) return fallback;
        issues.push({ path, message: `environment variable ${name} is not set (give a default with \${${name}:-default})` });
        return match;
      });
      if (single) whole.add(pointer(path));
      return text;
    }
    if (Array.isArray(value)) {
      // A list of plain texts without placeholders (a dummy's million lines) stays as it is.
      if (value.every((item) => typeof item !== 'object' && !(typeof item === 'string' && item.includes('${')))) return value;
      return value.map((item, index) => walk(item, [...path, index]));
    }
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, [...path, key])]));
    }
    return value;
  };
  return { document: walk(document, []), issues, whole, read };
}

/**
 * The environment variables a parsed flow document reads, each with where: found by the walk
 * that fills them in, so an escape or a line continuation that JSON5 reads as `${` is found too.
 */
export function environmentRead(document: unknown): ReadonlyMap<string, readonly (string | number)[]> {
  return substituteEnvironment(document, {}).read;
}

/** The JSON pointer of a path, as Ajv names places (`/connections/api/port`). */
export function pointer(path: readonly (string | number)[]): string {
  return path.map((key) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * The text of a whole-string placeholder as the number or boolean the schema wants there,
 * or undefined when it is not one (then the schema's own message stands).
 */
export function asWanted(text: string, wanted: readonly string[]): number | boolean | undefined {
  const trimmed = text.trim();
  if ((wanted.includes('integer') || wanted.includes('number')) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed))
    return Number(trimmed);
  if (wanted.includes('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return undefined;
}

/** A string that is exactly one placeholder, `${PORT}` or `${PORT:-17011}`, as an editor's schema accepts it. */
const wholePlaceholder = { type: 'string', pattern: '^\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}$' };

/**
 * The flow-file schema as editors read it: wherever it wants a number or `true`/`false`, a
 * string that is one placeholder is accepted too, since the hub fills it in and converts it
 * before it validates (`'${PORT:-17011}'`). Without this, an editor marks the demo's port.
 */
export function acceptingPlaceholders(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(acceptingPlaceholders);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, acceptingPlaceholders(value)]));
  if (node['type'] !== 'number' && node['type'] !== 'integer' && node['type'] !== 'boolean') return node;
  // What is said of the setting as a whole stays on it: its description, and when it applies (a form reads both there).
  const { description, appliesWhen, ...typed } = node;
  return {
    ...(description === undefined ? {} : { description }),
    ...(appliesWhen === undefined ? {} : { appliesWhen }),
    anyOf: [typed, wholePlaceholder],
  };
}
