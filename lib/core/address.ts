import { fail, ok, type Result } from './errors.ts';

/** 1–64 of a-z 0-9 -, starting with a letter or digit (R-P1). */
export const connectionIdPattern = '^[a-z0-9][a-z0-9-]{0,63}$';
const segment = '[A-Za-z0-9_.-]{1,128}';
/** One segment of a parameter id: 1–128 of A-Z a-z 0-9 _ - . (R-P1). */
export const segmentPattern = `^${segment}$`;
/** One or more segments joined by / (R-P1). */
export const parameterIdPattern = `^${segment}(/${segment})*$`;

const connectionIdRe = new RegExp(connectionIdPattern);
// "." and ".." are legal characters but as whole segments URL clients rewrite them away,
// so such an id could never be addressed over HTTP: each segment is looked at for them
// first, in the same pass (a dummy's million ids are checked here, twice).
const notDots = '(?!\\.\\.?(?:/|$))';
const parameterIdRe = new RegExp(`^${notDots}${segment}(?:/${notDots}${segment})*$`);

export interface Address {
  readonly connectionId: string;
  readonly parameterId: string;
}

/** True when `id` is a valid connection id. */
export function isConnectionId(id: string): boolean {
  return connectionIdRe.test(id);
}

/** Checks a parameter id; `_`-prefixed ids pass only when `reserved` is allowed. */
export function checkParameterId(id: string, { reserved = false } = {}): Result<string> {
  if (!parameterIdRe.test(id)) {
    return fail(
      'PB_BAD_ADDRESS',
      `"${id}" is not a parameter id: use segments of 1–128 characters A-Z a-z 0-9 _ - . joined by /, none of them . or .. alone`,
    );
  }
  if (id.startsWith('_') && !reserved) {
    return fail('PB_RESERVED_ID', `"${id}" begins with "_", which is reserved for the hub`);
  }
  return ok(id);
}

/** Splits `<connection id>/<parameter id>` at the first `/` and checks both halves. */
export function parseAddress(address: string): Result<Address> {
  const slash = address.indexOf('/');
  const connectionId = slash < 0 ? address : address.slice(0, slash);
  if (slash < 0 || !isConnectionId(connectionId)) {
    return fail('PB_BAD_ADDRESS', `"${address}" is not an address: expected <connection id>/<parameter id>`);
  }
  const parameterId = address.slice(slash + 1);
  const checked = checkParameterId(parameterId, { reserved: true });
  return checked.ok ? ok({ connectionId, parameterId }) : checked;
}
