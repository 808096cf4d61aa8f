import { SaxesParser } from 'saxes';
import { HubError } from '../../core/errors.ts';

const placeholderRe = /\$([A-Za-z0-9]+)/g;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

/**
 * An XML document with `$Name` placeholders in its text and attribute values (R-X3).
 * `parse` checks it is well-formed (errors give line and column) and finds the names;
 * `render` fills them in, XML-escaped, with never-set names as empty text.
 */
export class XmlTemplate {
  private constructor(
    private readonly source: string,
    readonly placeholders: readonly string[],
  ) {}

  /** Throws a PB_BAD_TEMPLATE HubError naming line and column when `source` is not well-formed XML. */
  static parse(source: string): XmlTemplate {
    const names = new Set<string>();
    const collect = (text: string) => {
      for (const [, name] of text.matchAll(placeholderRe)) names.add(name as string);
    };
    const parser = new SaxesParser({ position: true });
    let failure: HubError | undefined;
    parser.on('error', (error) => {
      const [, line, column, reason] = /^(?:undefined:)?(\d+):(\d+): (.*)$/s.exec(error.message) ?? [];
      const where = line ? `line ${line}, column ${column}: ${reason}` : error.message;
      failure ??= new HubError('PB_BAD_TEMPLATE', `template is not well-formed XML: ${where}`);
    });
    parser.on('text', collect);
    parser.on('attribute', ({ value }) => collect(value));
    parser.write(source).close();
    if (failure) throw failure;
    return new XmlTemplate(source, [...names]);
  }

  render(values: (name: string) => string | undefined): string {
    return this.source.replace(placeholderRe, (whole, name: string) =>
      this.placeholders.includes(name) ? escapeXml(values(name) ?? '') : whole,
    );
  }
}
