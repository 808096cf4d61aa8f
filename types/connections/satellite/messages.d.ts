/**
 * Companion Satellite's messages: one a line, a command then parameters `NAME=value`
 * separated by spaces, a value in double quotes when it holds spaces, `\` taking the next
 * character as it is, a parameter without `=` meaning true (`ADD-DEVICE OK DEVICEID="a"`).
 */
export interface Message {
    readonly command: string;
    /** Parameters by name; a bare word (`OK`, `ERROR`) is true. */
    readonly params: Readonly<Record<string, string | true>>;
}
export declare function parseMessage(line: string): Message;
/** A line to send: strings quoted (with `\` before a quote or a backslash), numbers as they are, booleans as 1 or 0. */
export declare function formatMessage(command: string, params?: Readonly<Record<string, string | number | boolean>>): string;
