/**
 * The shapes of what crosses the wall between the hub and its clients: the answers of
 * `GET /connections`, `/parameters`, `/problems`, `/rules` and `POST /failover`, and the
 * messages of the WebSocket (R-H3, R-H7, R-U1, R-B5). One source for the hub, which makes
 * them (lib/connections, lib/hub, lib/http), and for the operator console, which reads them:
 * console/*.js names these types in JSDoc `@import`s (types only: nothing of this file runs in
 * the browser), so `tsc -p tsconfig.console.json` checks the console against them. That check
 * reads this file, and what it imports, with the browser's types alone: it imports only core
 * modules that need nothing of Node.
 */
import { type Static, type TSchema } from '@sinclair/typebox';
import { type ErrorCode } from './errors.ts';
import { Access, type Value, ValueType } from './value.ts';
export type { Access, ErrorCode, Value, ValueType };
/**
 * Each shape is a TypeBox schema and the type made from it: the schema is what
 * `/openapi.json` and `/asyncapi.json` describe (lib/http/descriptions), the type what the
 * hub and the console are checked against. Read-only throughout, arrays too: what a client
 * is handed is not changed.
 */
export type Shape<T extends TSchema> = DeepReadonly<Static<T>>;
type DeepReadonly<T> = T extends readonly (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? {
    readonly [K in keyof T]: DeepReadonly<T[K]>;
} : T;
export declare const ErrorCodeSchema: import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">;
export declare const ValueTypeSchema: import("@sinclair/typebox").TUnsafe<"S" | "B" | "I" | "F" | "T">;
export declare const AccessSchema: import("@sinclair/typebox").TUnsafe<"read-only" | "write-only" | "read-write">;
export declare const ValueSchema: import("@sinclair/typebox").TUnsafe<Value>;
/** A connection's statuses (R-L2): `status` of `GET /connections`, and the `status` label of `patchbay_connection_status`. */
export declare const connectionStatuses: readonly ["starting", "connecting", "ok", "degraded", "failed", "disabled"];
export type ConnectionStatus = (typeof connectionStatuses)[number];
/** Where a connection stands, as it reports it. */
export declare const StatusReport: import("@sinclair/typebox").TObject<{
    status: import("@sinclair/typebox").TUnsafe<"starting" | "connecting" | "ok" | "degraded" | "failed" | "disabled">;
    reason: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">>;
}>;
export type StatusReport = Shape<typeof StatusReport>;
/** A connection as dashboards and tools see it: an entry of `GET /connections`. */
export declare const ConnectionInfo: import("@sinclair/typebox").TObject<{
    status: import("@sinclair/typebox").TUnsafe<"starting" | "connecting" | "ok" | "degraded" | "failed" | "disabled">;
    reason: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">>;
    type: import("@sinclair/typebox").TString;
    description: import("@sinclair/typebox").TString;
    id: import("@sinclair/typebox").TString;
    package: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TObject<{
        name: import("@sinclair/typebox").TString;
        version: import("@sinclair/typebox").TString;
    }>>;
    location: import("@sinclair/typebox").TString;
    group: import("@sinclair/typebox").TString;
    owner: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    details: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TUnknown>>;
}>;
export type ConnectionInfo = Shape<typeof ConnectionInfo>;
/**
 * A hub's place in its redundancy group (R-B1), as its mqtt connection reports it in
 * `details.redundancy`: `active` is the active hub's id (null while none is), `claiming` the
 * epoch this hub is taking over as, `waiting` set while a manual group has no active hub,
 * `voters` (a group with voters) whether each answers this hub and grants it the lease.
 */
export declare const RedundancyDetails: import("@sinclair/typebox").TObject<{
    group: import("@sinclair/typebox").TString;
    role: import("@sinclair/typebox").TUnsafe<"active" | "standby">;
    epoch: import("@sinclair/typebox").TNumber;
    active: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNull]>;
    failover: import("@sinclair/typebox").TUnsafe<"auto" | "manual">;
    claiming: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TNumber>;
    waiting: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    voters: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TObject<{
        reached: import("@sinclair/typebox").TBoolean;
        granted: import("@sinclair/typebox").TBoolean;
    }>>>;
}>;
export type RedundancyDetails = Shape<typeof RedundancyDetails>;
/** An entry of `GET /parameters` (R-H7): the value when known, who changed it last and when (R-O2). */
export declare const ParameterListing: import("@sinclair/typebox").TObject<{
    p: import("@sinclair/typebox").TString;
    type: import("@sinclair/typebox").TUnsafe<"S" | "B" | "I" | "F" | "T">;
    access: import("@sinclair/typebox").TUnsafe<"read-only" | "write-only" | "read-write">;
    v: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnsafe<Value>>;
    by: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    at: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
}>;
export type ParameterListing = Shape<typeof ParameterListing>;
/** Something that keeps a connection, a code flow or a rule from working as written: an entry of `GET /problems`. */
export declare const Problem: import("@sinclair/typebox").TObject<{
    source: import("@sinclair/typebox").TUnsafe<"connection" | "code-flow" | "rule" | "state">;
    id: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">;
    message: import("@sinclair/typebox").TString;
}>;
export type Problem = Shape<typeof Problem>;
/** A running rule as `GET /rules` lists it: where it stands, what it connects, its steps. */
export declare const RuleListing: import("@sinclair/typebox").TObject<{
    path: import("@sinclair/typebox").TString;
    folders: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
    name: import("@sinclair/typebox").TString;
    source: import("@sinclair/typebox").TString;
    destinations: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
    pipe: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TUnknown>>;
    status: import("@sinclair/typebox").TUnsafe<"failed" | "waiting" | "running" | "idle">;
    code: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">>;
    reason: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
}>;
export type RuleListing = Shape<typeof RuleListing>;
/** What each listing of the public API answers, by its path. */
export interface Answers {
    readonly '/connections': readonly ConnectionInfo[];
    readonly '/parameters': readonly ParameterListing[];
    readonly '/problems': readonly Problem[];
    readonly '/rules': readonly RuleListing[];
}
/** A coded error as a JSON client gets it (`Accept: application/json`). */
export declare const ErrorAnswer: import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<false>;
    error: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">;
}>;
export type ErrorAnswer = Shape<typeof ErrorAnswer>;
/** `{"ok": true}`: what a JSON client gets for a write that was taken. */
export declare const Taken: import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<true>;
}>;
/** The answer of `POST /failover` (R-B5): the takeover asked for, in words, or why not. */
export declare const FailoverAnswer: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<true>;
    message: import("@sinclair/typebox").TString;
}>, import("@sinclair/typebox").TObject<{
    ok: import("@sinclair/typebox").TLiteral<false>;
    error: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">;
}>]>;
export type FailoverAnswer = Shape<typeof FailoverAnswer>;
/**
 * A change on the value socket (R-H3): the value in wire form, always a string; with
 * `?origins=1` who made it and when, as `GET /parameters` lists them; with `?resume=1`
 * its place in the stream (R-W3), except in a snapshot.
 */
export declare const ChangeMessage: import("@sinclair/typebox").TObject<{
    p: import("@sinclair/typebox").TString;
    v: import("@sinclair/typebox").TString;
    by: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    at: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    seq: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TInteger>;
}>;
export type ChangeMessage = Shape<typeof ChangeMessage>;
/**
 * `?resume=1` (R-W3): the first message, the token to come back with and the `seq` the
 * stream stands at; and, alone, the end of a snapshot's values: the client has every value as
 * of that `seq` and may resume from it.
 */
export declare const ResumeGreeting: import("@sinclair/typebox").TObject<{
    resume: import("@sinclair/typebox").TString;
    seq: import("@sinclair/typebox").TInteger;
}>;
export declare const SnapshotEnd: import("@sinclair/typebox").TObject<{
    seq: import("@sinclair/typebox").TInteger;
}>;
export declare const ResumeMessage: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TObject<{
    resume: import("@sinclair/typebox").TString;
    seq: import("@sinclair/typebox").TInteger;
}>, import("@sinclair/typebox").TObject<{
    seq: import("@sinclair/typebox").TInteger;
}>]>;
export type ResumeMessage = Shape<typeof ResumeMessage>;
/** The answer to an item of a client's message that was not written: its address (null when it had none), why, and the code. */
export declare const RefusalMessage: import("@sinclair/typebox").TObject<{
    p: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TString, import("@sinclair/typebox").TNull]>;
    error: import("@sinclair/typebox").TString;
    code: import("@sinclair/typebox").TUnsafe<"PB_BAD_ADDRESS" | "PB_RESERVED_ID" | "PB_UNKNOWN_CONNECTION" | "PB_UNKNOWN_PARAMETER" | "PB_DUPLICATE_PARAMETER" | "PB_READ_ONLY" | "PB_WRITE_ONLY" | "PB_CONVERSION" | "PB_STATE_UNKNOWN" | "PB_BAD_REQUEST" | "PB_BAD_FILTER" | "PB_UNAUTHORIZED" | "PB_FORBIDDEN" | "PB_NOT_READY" | "PB_CROSS_ORIGIN" | "PB_BAD_HOST" | "PB_NOT_FOUND" | "PB_METHOD_NOT_ALLOWED" | "PB_UPGRADE_REQUIRED" | "PB_BODY_TOO_LARGE" | "PB_BATCH_TOO_LARGE" | "PB_UNSUPPORTED_MEDIA_TYPE" | "PB_INTERNAL" | "PB_BAD_KEY" | "PB_FLOW_FILE_READ" | "PB_FLOW_FILE_INVALID" | "PB_FLOW_INVALID" | "PB_FLOW_CHANGED" | "PB_RESUME_REFUSED" | "PB_IF_MATCH_REQUIRED" | "PB_FLOW_READ_ONLY" | "PB_CREDENTIALS_REQUIRED" | "PB_FLOW_PROTECTED" | "PB_PORT_UNAVAILABLE" | "PB_STARTING" | "PB_TLS" | "PB_DOCUMENT_ROOT" | "PB_BAD_TEMPLATE" | "PB_NO_DISPLAY" | "PB_CODE_FLOW" | "PB_FEEDBACK_LOOP" | "PB_RULE_FAILED" | "PB_FILE_WRITE" | "PB_STATE_UNAVAILABLE" | "PB_STATE_LOCKED" | "PB_BROKER_UNAVAILABLE" | "PB_OWNER_UNAVAILABLE" | "PB_NOT_ACTIVE" | "PB_ALREADY_ACTIVE" | "PB_CONNECTION_OWNED" | "PB_WAITING" | "PB_DEVICE_UNAVAILABLE" | "PB_DEVICE_TIMEOUT" | "PB_BAD_ANSWER" | "PB_SCENE_EMPTY" | "PB_OVER_LIMIT" | "PB_PLUGIN_INCOMPATIBLE" | "PB_PLUGIN_LOAD" | "PB_TYPE_TAKEN" | "PB_PROCESS_ENDED" | "PB_START_FAILED">;
}>;
export type RefusalMessage = Shape<typeof RefusalMessage>;
/**
 * Sent only to `?events=1` clients (R-U1): the parameters, or the connections, changed; list them again.
 * `resync`, only to `?resume` clients (R-W3): what they missed is no longer kept; a snapshot follows.
 */
export declare const HubEvent: import("@sinclair/typebox").TObject<{
    event: import("@sinclair/typebox").TUnsafe<"parameters" | "connections" | "resync">;
}>;
export type HubEvent = Shape<typeof HubEvent>;
/** An item of a message of the value socket: a message holds one, or (`?batch=1`) an array of them. */
export type SocketItem = ChangeMessage | RefusalMessage | HubEvent | ResumeMessage;
/** One line of the hub's log, as the console's live log shows it (R-U1). */
export declare const LogLine: import("@sinclair/typebox").TObject<{
    level: import("@sinclair/typebox").TString;
    time: import("@sinclair/typebox").TNumber;
    connection: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    msg: import("@sinclair/typebox").TString;
}>;
export type LogLine = Shape<typeof LogLine>;
/** A message of a `?log=<level>` socket: first the level the hub logs at, then its lines, the last ones kept first. */
export declare const LogMessage: import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TObject<{
    logLevel: import("@sinclair/typebox").TString;
}>, import("@sinclair/typebox").TObject<{
    log: import("@sinclair/typebox").TObject<{
        level: import("@sinclair/typebox").TString;
        time: import("@sinclair/typebox").TNumber;
        connection: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        msg: import("@sinclair/typebox").TString;
    }>;
}>]>;
export type LogMessage = Shape<typeof LogMessage>;
