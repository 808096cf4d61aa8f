/**
 * Escapes text for XML content and attribute values. Characters XML 1.0 cannot carry
 * become U+FFFD, so the document stays well-formed whatever is written (R-X4) and the loss
 * shows where it happened.
 */
export declare function escapeXml(text: string): string;
/**
 * An XML document with `$Name` placeholders in its text and attribute values (R-X3).
 * `parse` checks it is well-formed (errors give line and column) and finds the names;
 * `render` fills them in, XML-escaped, with never-set names as empty text.
 */
export declare class XmlTemplate {
    private readonly source;
    readonly placeholders: readonly string[];
    private constructor();
    /** Throws a PB_BAD_TEMPLATE HubError naming line and column when `source` is not well-formed XML. */
    static parse(source: string): XmlTemplate;
    render(values: (name: string) => string | undefined): string;
}
