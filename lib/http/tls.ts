/**
 * The certificate and key a rest-api serves HTTPS and WSS with. uWS says only "App
 * construction failed" for any problem with them, and OpenSSL would ask for a missing
 * passphrase on the terminal, so both files are read and checked here first: a mistake
 * fails the connection with what is wrong, in words.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HubError, reasonOf } from '../core/errors.ts';

export interface TlsFiles {
  /** PEM file of the certificate, followed by any intermediates (absolute path). */
  readonly cert: string;
  /** PEM file of its private key (absolute path). */
  readonly key: string;
  /** The key's passphrase, when it is encrypted. */
  readonly passphrase?: string;
}

/** Reads and checks `files`; throws PB_TLS saying what is wrong. */
export function checkTls({ cert, key, passphrase }: TlsFiles): void {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(readPem(cert, 'certificate'));
  } catch (error) {
    throw tlsError(error, `${cert} is not a certificate in PEM`);
  }
  const pem = readPem(key, 'key');
  // PKCS#8 ("ENCRYPTED PRIVATE KEY") and the older "Proc-Type: 4,ENCRYPTED" alike.
  if (passphrase === undefined && pem.includes('ENCRYPTED'))
    throw new HubError('PB_TLS', `the key ${key} is encrypted: name the environment variable that holds its passphrase in passphraseEnv`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(passphrase === undefined ? { key: pem } : { key: pem, passphrase });
  } catch (error) {
    if (passphrase !== undefined && /bad decrypt/i.test(reasonOf(error)))
      throw new HubError('PB_TLS', `the passphrase does not open the key ${key}`);
    throw tlsError(error, `${key} is not a private key in PEM`);
  }
  if (!certificate.checkPrivateKey(privateKey)) throw new HubError('PB_TLS', `the key ${key} is not the key of the certificate ${cert}`);
}

function readPem(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : reasonOf(error);
    throw new HubError('PB_TLS', `cannot read the ${what} ${path}: ${why}`);
  }
}

/** A HubError passes as it is; anything else is `what`, with the reason. */
function tlsError(error: unknown, what: string): HubError {
  return error instanceof HubError ? error : new HubError('PB_TLS', `${what}: ${reasonOf(error)}`);
}
