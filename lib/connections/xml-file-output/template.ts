import { SaxesParser } from 'saxes';
import { HubError } from '../../sdk/index.ts';

const placeholderRe = /\$([A-Za-z0-9]+)/g;

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // As references, so a parser gives them back exactly: a literal tab or line break in an
  // attribute value reads back as a space, and a literal carriage return as a line feed.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/**
 * What XML 1.0 cannot carry at all, not even as a character reference: the C0 controls
 * other than tab, line feed and carriage return, U+FFFE and U+FFFF, and surrogates that
 * are not half of a pair.
 */
const notXml =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Escapes text for XML content and attribute values. Characters XML 1.0 cannot carry
 * become U+FFFD, so the document stays well-formed whatever is written (R-X4) and the loss
 * shows where it happened.
 */
export function escapeXml(text: string): string {
  return text.replace(notXml, '\ufffd').replace(/[&<>"'\t\n\r]/g, (c) => escapes[c] ?? c);
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
