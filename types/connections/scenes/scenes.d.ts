import { type SceneSettings } from './scene.ts';
export declare const scenesType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    scenes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        members: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        description: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    }>>>;
    maxMembers: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    scenes: SceneSettings[];
    maxMembers: number;
}>;
