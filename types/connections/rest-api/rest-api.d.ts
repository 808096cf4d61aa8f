import { type ScopedToken } from '../../http/auth.ts';
export declare const restApiType: import("../serving.ts").ServingTypeDefinition<import("@sinclair/typebox").TObject<{
    port: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    bindIp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    documentRoot: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    username: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    password: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    token: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    wsFilters: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    allowedOrigins: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    hostnames: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    cert: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    key: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    passphraseEnv: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    tokens: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        name: import("@sinclair/typebox").TString;
        token: import("@sinclair/typebox").TString;
        read: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        write: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        metrics: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
        admin: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    }>>>;
    console: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    required: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    resumeWindow: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    resumeChanges: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
}>, {
    port: number;
    bindIp: string;
    documentRoot: string;
    credentials: {
        username: string;
        password: string;
        token: string;
        tokens: ScopedToken[];
    };
    wsFilters: import("../../core/regex.ts").GroupPattern[];
    allowedOrigins: string[];
    hostnames: string[];
    tls: {
        cert: string;
        key: string;
        passphraseEnv: string;
    } | undefined;
    required: string[];
    console: boolean;
    resume: {
        window: number;
        changes: number;
    };
}>;
