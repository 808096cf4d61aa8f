/**
 * Text with `{{connection/parameter}}` placeholders in it (a request's URL, headers, body):
 * read once from the settings, filled with the parameters' values each time it is sent.
 */
import { type Issue, type Value } from '../../sdk/index.ts';
/** Text with `{{address}}` in it, read once: literal parts, and the addresses between them. */
export interface Template {
    readonly parts: readonly string[];
    readonly addresses: readonly string[];
}
export declare const PLACEHOLDER: RegExp;
export declare function templateOf(text: string, path: readonly (string | number)[], issues: Issue[]): Template;
/** A template with each `{{address}}` replaced by that parameter's text; fails on an unknown value. */
export declare function fill(template: Template, valueAt: (address: string) => Value | undefined, encode: (text: string) => string, inPath?: readonly boolean[]): string;
