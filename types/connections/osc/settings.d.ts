import { type Access, type Checked, type Parsed, Peers, type ValueType } from '../../sdk/index.ts';
import type { OscQuerySettings } from './oscquery.ts';
/** One OSC address as a parameter of the connection. */
export interface OscAddress {
    readonly id: string;
    readonly address: string;
    readonly type: ValueType;
    readonly access: Access;
}
export declare const oscSettings: import("@sinclair/typebox").TObject<{
    transport: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"udp">, import("@sinclair/typebox").TLiteral<"tcp">]>>;
    port: import("@sinclair/typebox").TInteger;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    host: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    sendPort: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    addresses: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        address: import("@sinclair/typebox").TString;
        type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<ValueType>[]>;
        access: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"read-only">, import("@sinclair/typebox").TLiteral<"read-write">, import("@sinclair/typebox").TLiteral<"write-only">]>>;
    }>>>;
    learn: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    maxParameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxPacketBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    oscQuery: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TObject<{
        port: import("@sinclair/typebox").TInteger;
        bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        expose: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        write: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        origins: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        hostnames: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    }>>;
}>;
export type OscSettings = Omit<Parsed<typeof oscSettings>, 'addresses' | 'oscQuery'> & {
    /** udp: the peers whose packets are taken. */
    readonly peers: Peers;
    readonly addresses: readonly OscAddress[];
    readonly oscQuery: OscQuerySettings | undefined;
};
/** Checks what the schema cannot: ids, OSC addresses, each listed once, and where writes go. */
export declare function parseOscSettings(settings: Parsed<typeof oscSettings>): Checked<OscSettings>;
