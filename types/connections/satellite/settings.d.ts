import { type Overruns, type Parsed, Peers } from '../../sdk/index.ts';
export declare const COLOR: RegExp;
export declare const satelliteSettings: import("@sinclair/typebox").TObject<{
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    allow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    keys: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        device: import("@sinclair/typebox").TString;
        key: import("@sinclair/typebox").TInteger;
        show: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        on: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        off: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        text: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        textColor: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
        press: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"none">, import("@sinclair/typebox").TLiteral<"toggle">, import("@sinclair/typebox").TLiteral<"momentary">, import("@sinclair/typebox").TLiteral<"fire">]>>;
        target: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    }>>>;
    timeout: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxClients: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxClientsPerAddress: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxDevices: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxDevicesPerClient: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxKeys: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    maxLineBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>;
/** One entry of `keys`: a key bound to a parameter. */
export type KeyBinding = Parsed<typeof satelliteSettings>['keys'][number];
/**
 * What a satellite may send past its bounds, by kind: devices past `maxDevices` or
 * `maxDevicesPerClient`, keys past `maxKeys`, lines past `maxLineBytes`, bitmaps larger than
 * the hub draws, and device ids another satellite has.
 */
export declare const OVERRUN_KINDS: readonly ["devices", "keys", "lines", "bitmaps", "taken"];
export type SatelliteOverruns = Overruns<(typeof OVERRUN_KINDS)[number]>;
export declare function parseSatelliteSettings(written: Parsed<typeof satelliteSettings>): import("../../core/issue.ts").Checked<{
    peers: Peers;
    port: number;
    bindIp: string;
    allow: string[];
    keys: ({
        device: string;
        key: number;
        show: string;
        on: string;
        off: string;
        text: string;
        textColor: string;
        press: "none" | "toggle" | "momentary" | "fire";
        target: string;
    } & {})[];
    timeout: number;
    maxClients: number;
    maxClientsPerAddress: number;
    maxDevices: number;
    maxDevicesPerClient: number;
    maxKeys: number;
    maxLineBytes: number;
}>;
