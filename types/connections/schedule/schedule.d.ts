import { type Entry } from './entry-run.ts';
import { Zone } from './zone.ts';
interface Parsed {
    readonly zone: Zone;
    readonly entries: readonly Entry[];
}
export declare const scheduleType: import("../../sdk/type.ts").DefinedConnectionType<import("@sinclair/typebox").TObject<{
    timezone: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    catchUp: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TBoolean>;
    entries: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TObject<{
        id: import("@sinclair/typebox").TString;
        cron: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        at: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        timezone: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        catchUp: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TBoolean>;
    }>>>;
}>, Parsed>;
export {};
