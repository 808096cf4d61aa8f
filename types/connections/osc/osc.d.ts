/**
 * `osc`: Open Sound Control 1.0 (R-Q1) over UDP — received on `port`, sent to
 * `host`:`sendPort` from the same socket — or over TCP with SLIP framing, as a link to
 * `host`:`port` that reconnects with backoff (R-G1). An incoming message for a listed
 * address sets its parameter from its first argument (R-C); bundles apply in order, nested
 * ones too, at once whatever their timetag. A write sends one message with one argument
 * typed by the parameter (`i`, `f`, `s`, `T`/`F`, none for a trigger), answered once the
 * socket took it: OSC has no acknowledgements, so the written value is the parameter's.
 * With `learn`, each new incoming address becomes a parameter typed by its first argument,
 * at most `maxParameters` (R-G2, R-G4). Packets over `maxPacketBytes` are dropped and
 * degrade the connection a while; malformed ones are counted and logged sparsely. With
 * `oscQuery` it serves the hub's parameters that `expose` matches as an OSCQuery namespace
 * (R-DS2, oscquery.ts): for that it serves the hub, and so reaches the graph.
 *
 * Parameters:
 *   <id>                      S/B/I/F/T   as listed    one per entry of `addresses`
 *   <address without its />   S/B/I/F/T   read-write   with `learn`, one per new address heard
 */
import { type ValueType } from '../../sdk/index.ts';
import { type OscSettings } from './settings.ts';
export declare const oscType: import("../serving.ts").ServingTypeDefinition<import("../../sdk/index.ts").TObject<{
    transport: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"udp">, import("@sinclair/typebox").TLiteral<"tcp">]>>;
    port: import("@sinclair/typebox").TInteger;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    host: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    sendPort: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    addresses: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("../../sdk/index.ts").TObject<{
        id: import("@sinclair/typebox").TString;
        address: import("@sinclair/typebox").TString;
        type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<ValueType>[]>;
        access: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"read-only">, import("@sinclair/typebox").TLiteral<"read-write">, import("@sinclair/typebox").TLiteral<"write-only">]>>;
    }>>>;
    learn: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    maxParameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxPacketBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    oscQuery: import("@sinclair/typebox").TOptional<import("../../sdk/index.ts").TObject<{
        port: import("@sinclair/typebox").TInteger;
        bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        expose: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        write: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        origins: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        hostnames: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    }>>;
}>, OscSettings>;
