/**
 * The part of a documentation page that `npm run docs` writes, between two markers: the
 * connection types' reference (lib/config/reference.ts) and the HTTP operations
 * (lib/http/http-reference.ts) keep their tables there, the prose around them by hand.
 */
export const generatedStart = '<!-- generated:start (npm run docs writes this part from the schema; edit the schema, not this) -->';
export const generatedEnd = '<!-- generated:end -->';

/** The generated part of a page, or undefined when it has none. */
export function generatedOf(page: string): string | undefined {
  const start = page.indexOf(generatedStart);
  const end = page.indexOf(generatedEnd);
  if (start < 0 || end < start) return undefined;
  return page
    .slice(start + generatedStart.length, end)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

/** The page with its generated part replaced; a page that does not exist yet gets a title and the part. */
export function withGenerated(page: string | undefined, part: { readonly title: string; readonly generated: string }): string {
  const block = `${generatedStart}\n${part.generated}\n${generatedEnd}`;
  if (page === undefined) return `# ${part.title}\n\n${block}\n`;
  const start = page.indexOf(generatedStart);
  const end = page.indexOf(generatedEnd);
  if (start < 0 || end < start) throw new Error(`no ${generatedStart} … ${generatedEnd} part to replace`);
  return `${page.slice(0, start)}${block}${page.slice(end + generatedEnd.length)}`;
}
