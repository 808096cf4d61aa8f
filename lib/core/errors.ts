/**
 * The table of stable error codes. A code never changes meaning once published; the
 * README lists every code with the text below (a spec keeps the two in sync).
 */
export const errorCodes = {
  PB_BAD_ADDRESS:
    'An address, connection id or parameter id breaks the id rules: connection ids are 1–64 of a-z 0-9 -, parameter id segments 1–128 of A-Z a-z 0-9 _ - . joined by /.',
  PB_RESERVED_ID: 'A parameter id begins with `_`, which is reserved for the hub (such as `_status/connected`). Rename the parameter.',
  PB_UNKNOWN_CONNECTION: 'No connection has this id. Check the address against the `connections` of the flow file.',
  PB_UNKNOWN_PARAMETER: "The connection exists but has no parameter with this id. Check the id against the connection type's parameter list.",
  PB_DUPLICATE_PARAMETER: 'A parameter with this address already exists. Each id may be defined once per connection.',
  PB_READ_ONLY: 'The parameter is read-only: the hub only reports it. Write to a writable parameter instead.',
  PB_CONVERSION: "The value cannot be converted to the parameter's type; the parameter keeps its previous value. See the conversion table.",
  PB_BAD_KEY: 'A key combination names an unknown key or modifier. Write modifiers (ctrl, shift, alt, meta) and one key, joined by -.',
  PB_FLOW_FILE_READ: 'The flow file cannot be read or is not valid JSON5; the message gives the line and column.',
  PB_FLOW_FILE_INVALID: 'The flow file has mistakes; each one is listed with its JSON path and what was expected.',
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** An error that reaches users: a stable code plus a message that says what went wrong. */
export class HubError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HubError';
    this.code = code;
  }
}

/** A failure as data: what parameters and loaders return instead of throwing. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HubError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: ErrorCode, message: string): Result<T> => ({ ok: false, error: new HubError(code, message) });

/** The message of anything thrown, for logs and statuses. */
export function reasonOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
