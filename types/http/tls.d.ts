export interface TlsFiles {
    /** PEM file of the certificate, followed by any intermediates (absolute path). */
    readonly cert: string;
    /** PEM file of its private key (absolute path). */
    readonly key: string;
    /** The key's passphrase, when it is encrypted. */
    readonly passphrase?: string;
}
/** Reads and checks `files`; throws PB_TLS saying what is wrong. */
export declare function checkTls({ cert, key, passphrase }: TlsFiles): void;
