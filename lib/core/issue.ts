/** One mistake in a flow file: where (a JSON path) and what was expected there. */
export interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** `connections.api.port`, `rules[0].destinations[2]`: the path as users read it. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += /^[A-Za-z_$][\w$-]*$/.test(key) ? `${text ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`;
  }
  return text || '(document)';
}

export function formatIssue(issue: Issue): string {
  return `${formatPath(issue.path)}: ${issue.message}`;
}

/** A parse that either succeeds or lists every mistake it found, each with its path. */
export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly Issue[] };

/** The issues of a part of a document, with their paths made relative to the whole. */
export function within(prefix: readonly (string | number)[], issues: readonly Issue[]): Issue[] {
  return issues.map((issue) => ({ path: [...prefix, ...issue.path], message: issue.message }));
}
