import { createHash, timingSafeEqual } from 'node:crypto';

export interface Credentials {
  readonly username: string;
  readonly password: string;
  readonly token: string;
}

/**
 * R-H5: Basic (username + password) and/or Bearer (token). With nothing configured every
 * request passes. Comparisons hash both sides first, so they take the same time whatever
 * the length or content of the attempt.
 */
export class Authenticator {
  /** True when requests need credentials. */
  readonly required: boolean;
  /** One `WWW-Authenticate` value per configured scheme, for 401 answers. */
  readonly challenges: readonly string[];
  private readonly basic: Buffer | undefined;
  private readonly bearer: Buffer | undefined;

  constructor({ username, password, token }: Credentials) {
    const basicConfigured = username !== '' || password !== '';
    this.basic = basicConfigured ? digest(`${username}:${password}`) : undefined;
    this.bearer = token !== '' ? digest(token) : undefined;
    this.required = this.basic !== undefined || this.bearer !== undefined;
    this.challenges = [
      ...(this.basic ? ['Basic realm="patchbay", charset="UTF-8"'] : []),
      ...(this.bearer ? ['Bearer realm="patchbay"'] : []),
    ];
  }

  /** Checks an `Authorization` header, or a token given another way (`?access_token=`). */
  accepts(authorization: string, accessToken = ''): boolean {
    if (!this.required) return true;
    const space = authorization.indexOf(' ');
    const scheme = authorization.slice(0, Math.max(space, 0)).toLowerCase();
    const value = authorization.slice(space + 1).trim();
    let granted = false;
    if (this.basic && scheme === 'basic') granted = same(digest(Buffer.from(value, 'base64').toString('utf8')), this.basic);
    if (this.bearer) {
      const offered = scheme === 'bearer' ? value : accessToken;
      granted = (offered !== '' && same(digest(offered), this.bearer)) || granted;
    }
    return granted;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function same(a: Buffer, b: Buffer): boolean {
  return timingSafeEqual(a, b);
}
