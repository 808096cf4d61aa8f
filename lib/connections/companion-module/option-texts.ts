/**
 * `$(…)` in the texts a module is sent and asks about (R-CM5, R-CM7), under one rule: a value
 * is data, never read again as `$(…)`.
 *
 * The hub fills a binding's option text itself: `$(value)` takes the written value, any other
 * `$(name)` the value it names; what is put in is not scanned again. A module of base 1.x then
 * often asks the hub to parse the text it was sent (`parseVariablesInString`): the values the
 * hub put in that could read as `$(…)` are remembered, and left as they are there. The rest of
 * such a text reads only what the connection is entitled to: its own variables, and the names
 * its settings give. So a token that may write one parameter cannot read another through a
 * module: a written `$(studio/secret)` reached the device filled in, and came back in the
 * module's variables.
 */

/** The text that takes the written value. */
export const WRITTEN = '$(value)';

/** `$(…)` in a text, the name inside it. */
const NAMES = /\$\(([^()]+)\)/g;

/** The names of the `$(…)` in a text, in order. */
export const namesIn = (text: string): string[] => [...text.matchAll(NAMES)].map(([, name]) => name ?? '');

/** Values put in that are remembered (the latest), so a module's parse soon after finds them. */
const MOST_REMEMBERED = 64;

/** What the texts read of the hub. */
export interface TextSource {
  /** The text of `$(name)`: a variable or a hub value, `$NA` for none. */
  read(name: string): string;
  /** Whether a module may read `$(name)` in a text it asks about. */
  entitled(name: string): boolean;
}

export class OptionTexts {
  /** Values put in that read as `$(…)`, oldest first. */
  private readonly put = new Set<string>();

  constructor(private readonly source: TextSource) {}

  /** A binding's option text with `$(value)` as `written` (when given) and every other `$(…)` filled in. */
  fill(template: string, written?: string): string {
    const fillPart = (part: string) => part.replace(NAMES, (_, name: string) => this.putIn(this.source.read(name)));
    if (written === undefined) return fillPart(template);
    return template.split(WRITTEN).map(fillPart).join(this.putIn(written));
  }

  /** A text the module asks the hub to parse: what the hub put in stays as it is; the rest reads what the connection may. */
  parse(text: string): string {
    let parsed = '';
    let from = 0;
    for (const [start, end] of this.spansPut(text)) {
      parsed += this.parsePart(text.slice(from, start)) + text.slice(start, end);
      from = end;
    }
    return parsed + this.parsePart(text.slice(from));
  }

  private parsePart(part: string): string {
    return part.replace(NAMES, (_, name: string) => (this.source.entitled(name) ? this.source.read(name) : '$NA'));
  }

  /** Where values put in lie in `text`, in order and not overlapping. */
  private spansPut(text: string): [number, number][] {
    const spans: [number, number][] = [];
    for (const value of this.put)
      for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) spans.push([at, at + value.length]);
    spans.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const span of spans) {
      const last = merged.at(-1);
      if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
      else merged.push(span);
    }
    return merged;
  }

  /** A value put into a text: remembered when it could read as `$(…)`. */
  private putIn(value: string): string {
    if (!value.includes('$(')) return value;
    this.put.delete(value);
    this.put.add(value);
    if (this.put.size > MOST_REMEMBERED) this.put.delete(this.put.values().next().value as string);
    return value;
  }
}
