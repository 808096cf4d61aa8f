import { type MqttSettings } from './settings.ts';
export declare const mqttType: import("../serving.ts").ServingTypeDefinition<import("../../sdk/index.ts").TObject<{
    url: import("@sinclair/typebox").TString;
    username: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    password: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    clientId: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    prefix: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    qos: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<0>, import("@sinclair/typebox").TLiteral<1>, import("@sinclair/typebox").TLiteral<2>]>>;
    ca: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    cert: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    key: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    keepalive: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    publish: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    homeAssistant: import("@sinclair/typebox").TOptional<import("../../sdk/index.ts").TObject<{
        expose: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        prefix: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TString>;
    }>>;
    setAccess: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
    limits: import("../../sdk/settings.ts").TDefaulted<import("../../sdk/index.ts").TObject<{
        payloadBytes: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        hubs: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        connectionsPerHub: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        parametersPerHub: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
        heldValues: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TInteger>;
    }>>;
    topics: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TArray<import("../../sdk/index.ts").TObject<{
        id: import("@sinclair/typebox").TString;
        topic: import("@sinclair/typebox").TString;
        type: import("@sinclair/typebox").TUnion<import("@sinclair/typebox").TLiteral<import("../../core/value.ts").ValueType>[]>;
        access: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"read-only">, import("@sinclair/typebox").TLiteral<"read-write">, import("@sinclair/typebox").TLiteral<"write-only">]>>;
        commandTopic: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
    }>>>;
    hub: import("@sinclair/typebox").TOptional<import("../../sdk/index.ts").TObject<{
        id: import("@sinclair/typebox").TString;
        share: import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>;
        group: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TString>;
        failover: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"auto">, import("@sinclair/typebox").TLiteral<"manual">]>>;
        members: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TArray<import("@sinclair/typebox").TString>>;
        voters: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TRecord<import("@sinclair/typebox").TString, import("@sinclair/typebox").TString>>;
        key: import("@sinclair/typebox").TOptional<import("@sinclair/typebox").TUnion<[import("../../sdk/index.ts").TObject<{
            file: import("@sinclair/typebox").TString;
        }>, import("../../sdk/index.ts").TObject<{
            env: import("@sinclair/typebox").TString;
        }>]>>;
    }>>;
}>, MqttSettings>;
