type Json = Record<string, unknown>;
/** The document, for the hub of `version` whose session cookie is `cookie`. */
export declare function asyncApiDocument({ version, cookie }: {
    readonly version: string;
    readonly cookie: string;
}): Json;
export {};
