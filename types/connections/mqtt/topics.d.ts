/**
 * Where things live on the broker (R-M2, R-M5). Values and writes use BTConnect's layout,
 * so tools that speak it see a hub's parameters:
 *
 *   <prefix>/<connection id>/val/<parameter id>   the value as text, retained (triggers not)
 *   <prefix>/<connection id>/set/<parameter id>   a write to it
 *
 * Hubs that share a broker add, under `$hub` (no connection id can be that: ids are a-z 0-9 -):
 *
 *   <prefix>/$hub/<hub id>               presence: {"online": true, "session"} or {"online": false}, retained;
 *                                        the last will says false; `session` is new at every connect
 *   <prefix>/$hub/<hub id>/connections   the connections it runs, with their parameters, retained
 *   <prefix>/$hub/<hub id>/answers       answers to the writes it forwarded (MQTT 5 response topic)
 *   <prefix>/$hub/<hub id>/role          in a redundancy group: {"group", "role", "epoch"}, retained (R-B1)
 *   <prefix>/$hub/<hub id>/records/<connection id>   in a group, the active hub's records of a
 *                                        connection (a timer's deadline, a schedule's progress, scenes), retained
 *
 * each signed with the site key (signing.ts); plain clients that want answers to their
 * writes name a response topic under
 *
 *   <prefix>/$answers/<anything>
 *
 * an mqtt connection with `homeAssistant` and without `hub` (a hub's presence serves otherwise):
 *
 *   <prefix>/$status/<connection id>     "online", retained; the last will says "offline" (R-DS3)
 *
 * and every mqtt connection, hub or not:
 *
 *   <prefix>/$sync/<random>              a marker it sends itself after subscribing: once it is
 *                                        back, every retained message before it has arrived (a
 *                                        token of the session: the client id is published nowhere)
 *   <prefix>/$lease/<hub id>             in a group, every hub's renewals, `{"epoch", "seen"}`: the
 *                                        broker's acknowledgement renews the active hub's lease; the
 *                                        others count one only when `seen` names their session now
 */
/** A `$hub` topic, read back: of which hub, and what it carries. */
export type HubTopic = {
    readonly hubId: string;
    readonly kind: 'presence' | 'connections' | 'answers' | 'role';
} | {
    readonly hubId: string;
    readonly kind: 'records';
    readonly connectionId: string;
};
/** A value or write topic, read back: which kind, and the parameter's address. */
export interface ParameterTopic {
    readonly kind: 'val' | 'set';
    readonly address: string;
}
export declare class TopicLayout {
    readonly prefix: string;
    private readonly levels;
    constructor(prefix: string);
    value(address: string): string;
    write(address: string): string;
    private parameterTopic;
    /** Filters for every value topic and every write topic. */
    get values(): string;
    get writes(): string;
    /** The parameter a value or write topic is about; undefined for any other topic. */
    parameterOf(topic: string): ParameterTopic | undefined;
    presence(hubId: string): string;
    /** Whether a connection without `hub` is there, for Home Assistant (R-DS3). */
    availability(connectionId: string): string;
    connections(hubId: string): string;
    answers(hubId: string): string;
    /** Where plain clients may ask for answers to their writes: `<prefix>/$answers/<anything>`. */
    get plainAnswers(): string;
    role(hubId: string): string;
    records(hubId: string, connectionId: string): string;
    lease(hubId: string): string;
    /** Filter for every hub's lease renewals. */
    get leases(): string;
    /** The hub whose renewal a topic carries; undefined for other topics. */
    leaseOf(topic: string): string | undefined;
    sync(token: string): string;
    /** Filter for every hub's presence and connections. */
    get hubs(): string;
    /** What a `$hub` topic is, and of which hub; undefined for other topics. */
    hubTopic(topic: string): HubTopic | undefined;
}
