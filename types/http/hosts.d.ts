/** A `Host` header split into its name (lower case, no brackets, no trailing dot) and port. */
export interface HostHeader {
    readonly name: string;
    /** As written, "" when absent. */
    readonly port: string;
    readonly ip: boolean;
}
/** Parses a `Host` header (`name`, `name:port`, `1.2.3.4:port`, `[::1]:port`); undefined for anything else. */
export declare function parseHost(header: string): HostHeader | undefined;
/** The names under which a hub answers, besides IP literals. */
export declare class HostAllowList {
    private readonly names;
    /** `hostnames` as the flow file gives them (names without port); the machine's own are added. */
    constructor(hostnames: readonly string[], machine?: string);
    /** True for a `Host` the hub answers. */
    allows(header: string): boolean;
}
