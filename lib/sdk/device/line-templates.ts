/**
 * Text with `$name` in it, as the line protocol's `set` entries and send frames are written:
 * read once into its literal parts and names, and filled in for each frame.
 */

/** Text with `$name` in it, read once: the literal parts, and the names between them. */
export interface Template {
  readonly parts: readonly string[];
  readonly names: readonly string[];
}

const NAME = /\$(\$|[A-Za-z_][A-Za-z0-9_]*)/g;

export function templateOf(text: string): Template {
  const parts: string[] = [];
  const names: string[] = [];
  let last = 0;
  let literal = '';
  for (const found of text.matchAll(NAME)) {
    literal += text.slice(last, found.index);
    last = found.index + found[0].length;
    // `$$` is a dollar sign.
    if (found[1] === '$') literal += '$';
    else {
      parts.push(literal);
      names.push(found[1] as string);
      literal = '';
    }
  }
  parts.push(literal + text.slice(last));
  return { parts, names };
}

export function fill(template: Template, value: (name: string) => string): string {
  let text = template.parts[0] as string;
  for (let i = 0; i < template.names.length; i++) text += value(template.names[i] as string) + template.parts[i + 1];
  return text;
}

/** A `set` entry's id or value: fixed text, or text with groups (by their place in `GroupPattern.names`). */
export type Filled = string | { readonly parts: readonly string[]; readonly groups: readonly number[] };

export function filledOf(template: Template, names: readonly string[]): Filled {
  if (template.names.length === 0) return template.parts[0] as string;
  return { parts: template.parts, groups: template.names.map((name) => names.indexOf(name)) };
}

export function fillGroups(filled: Filled, groups: readonly string[]): string {
  if (typeof filled === 'string') return filled;
  let text = filled.parts[0] as string;
  for (let i = 0; i < filled.groups.length; i++) text += (groups[filled.groups[i] as number] ?? '') + filled.parts[i + 1];
  return text;
}
