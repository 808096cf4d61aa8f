import { type MidiPorts } from './ports.ts';
/** The `midi` type over the ports `ports` gives: the machine's, or a spec's. */
export declare function midiTypeWith(ports: () => Promise<MidiPorts>): import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    input: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    output: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    parameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    learn: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    maxParameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    input: string;
    output: string;
    parameters: string[];
    learn: boolean;
    maxParameters: number;
} & {}>;
export declare const midiType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    input: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    output: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    parameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    learn: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    maxParameters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    input: string;
    output: string;
    parameters: string[];
    learn: boolean;
    maxParameters: number;
} & {}>;
/** The bytes of a system exclusive message written as hex (spaces allowed), or what is wrong with it. */
export declare function sysexBytes(text: string): number[] | string;
