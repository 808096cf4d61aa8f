import { posix } from 'node:path';

/** A relative link of a markdown file: where it points, and the heading anchor when it names one. */
export interface RelativeLink {
  readonly text: string;
  readonly path: string;
  readonly anchor: string | undefined;
}

/** Markdown with its fenced code blocks blanked (to spaces, keeping every offset): their lines are neither headings nor links. */
const withoutFences = (markdown: string) =>
  markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));

/** Markdown with its code spans blanked as well, so code that looks like a link is not one. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, (span) => `\`${' '.repeat(span.length - 2)}\``);

/**
 * The relative links and images of a markdown file (`[text](target)`, `![alt](target)`),
 * resolved against the file's folder; links with a scheme (`https:`, `mailto:`) are left
 * out, and a link to an anchor of the same file has the file's own path.
 */
export function relativeLinks(markdown: string, file: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  for (const match of withoutCode(markdown).matchAll(/!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = markdown.slice(match.index + match[0].indexOf('](') + 2).split(/[)\s]/, 1)[0]!;
    const text = markdown.slice(match.index, match.index + match[0].indexOf('](')).replace(/^!?\[/, '');
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart = '', anchor] = target.split('#', 2);
    const path = pathPart === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURIComponent(pathPart.split('?')[0]!)));
    links.push({ text, path, anchor });
  }
  return links;
}

/** The anchors GitHub makes of a markdown file's headings: `## WebSocket (\`/ws\`, R-H3)` → `websocket-ws-r-h3`. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const text = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*]/g, '')
      .trim()
      .toLowerCase();
    const slug = text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
