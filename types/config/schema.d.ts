import { type TSchema } from '@sinclair/typebox';
import type { ConnectionType } from '../connections/connection.ts';
/** Settings every connection accepts (R-L1); those of `isolation` all but the types that serve the hub. */
export declare const commonSettings: {
    enabled: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    description: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    location: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    group: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    debug: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    persist: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    statusParameters: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
};
/** Where a connection runs (R-PK4): settings of every type but those that serve the hub, which run in its process. */
export declare const isolationSettings: {
    isolate: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"process">, import("@sinclair/typebox").TLiteral<"none">]>>;
    maxMemoryMb: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    hangMs: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
};
/** The settings besides its own that a connection may have, as the reference lists them. */
export declare const sharedSettings: {
    isolate: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"process">, import("@sinclair/typebox").TLiteral<"none">]>>;
    maxMemoryMb: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    hangMs: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
    enabled: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    description: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    location: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    group: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    debug: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    persist: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    statusParameters: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
};
export declare const commonSettingNames: string[];
/**
 * The JSON Schema of a flow file (R-F1), built from the registered connection types. It is
 * what validation runs and what editors get from `patchbay schema`.
 */
export declare function flowFileSchema(types: readonly ConnectionType[]): TSchema;
