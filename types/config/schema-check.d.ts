import type { ConnectionType } from '../connections/connection.ts';
import type { Issue } from '../core/issue.ts';
/** The flow-file schema of the built-in types, built once: to validate with, and to write out for editors. */
export declare const builtInSchema: import("@sinclair/typebox").TSchema;
/**
 * The schema's mistakes in `document`, for a flow whose types are the built-in ones and
 * `extra`. `whole` holds the JSON pointers of the strings that were one whole placeholder:
 * where the schema wants a number or a boolean, they are converted in `document`.
 */
export declare function checkSchema(document: unknown, extra: readonly ConnectionType[], whole: ReadonlySet<string>): Issue[];
