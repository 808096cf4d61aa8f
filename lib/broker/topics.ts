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
 *   <prefix>/$values/<hub id>            hubs sharing: the values of shared parameters that changed again
 *                                        within a second of their value topic's last message, a
 *                                        turn's in one message, not retained (share/value-bursts.ts)
 *   <prefix>/$lease/<hub id>             in a group, every hub's renewals, `{"epoch", "seen"}`: the
 *                                        broker's acknowledgement renews the active hub's lease; the
 *                                        others count one only when `seen` names their session now
 */

/** A `$hub` topic, read back: of which hub, and what it carries. */
export type HubTopic =
  | { readonly hubId: string; readonly kind: 'presence' | 'connections' | 'answers' | 'role' }
  | { readonly hubId: string; readonly kind: 'records'; readonly connectionId: string };

/** A value or write topic, read back: which kind, and the parameter's address. */
export interface ParameterTopic {
  readonly kind: 'val' | 'set';
  readonly address: string;
}

export class TopicLayout {
  private readonly levels: number;

  constructor(readonly prefix: string) {
    this.levels = prefix.split('/').length;
  }

  value(address: string): string {
    return this.parameterTopic(address, 'val');
  }

  write(address: string): string {
    return this.parameterTopic(address, 'set');
  }

  private parameterTopic(address: string, kind: 'val' | 'set'): string {
    const slash = address.indexOf('/');
    return `${this.prefix}/${address.slice(0, slash)}/${kind}/${address.slice(slash + 1)}`;
  }

  /** Filters for every value topic and every write topic. */
  get values(): string {
    return `${this.prefix}/+/val/#`;
  }

  get writes(): string {
    return `${this.prefix}/+/set/#`;
  }

  /** The parameter a value or write topic is about; undefined for any other topic. */
  parameterOf(topic: string): ParameterTopic | undefined {
    if (!topic.startsWith(`${this.prefix}/`)) return undefined;
    const rest = topic.slice(this.prefix.length + 1).split('/');
    const [connectionId, kind, ...parameter] = rest;
    if (connectionId === undefined || connectionId.startsWith('$') || (kind !== 'val' && kind !== 'set') || parameter.length === 0)
      return undefined;
    return { kind, address: `${connectionId}/${parameter.join('/')}` };
  }

  presence(hubId: string): string {
    return `${this.prefix}/$hub/${hubId}`;
  }

  /** Whether a connection without `hub` is there, for Home Assistant (R-DS3). */
  availability(connectionId: string): string {
    return `${this.prefix}/$status/${connectionId}`;
  }

  connections(hubId: string): string {
    return `${this.prefix}/$hub/${hubId}/connections`;
  }

  answers(hubId: string): string {
    return `${this.prefix}/$hub/${hubId}/answers`;
  }

  /** Where plain clients may ask for answers to their writes: `<prefix>/$answers/<anything>`. */
  get plainAnswers(): string {
    return `${this.prefix}/$answers/`;
  }

  role(hubId: string): string {
    return `${this.prefix}/$hub/${hubId}/role`;
  }

  records(hubId: string, connectionId: string): string {
    return `${this.prefix}/$hub/${hubId}/records/${connectionId}`;
  }

  lease(hubId: string): string {
    return `${this.prefix}/$lease/${hubId}`;
  }

  /** Filter for every hub's lease renewals. */
  get leases(): string {
    return `${this.prefix}/$lease/+`;
  }

  /** The hub whose renewal a topic carries; undefined for other topics. */
  leaseOf(topic: string): string | undefined {
    return this.lastLevelUnder(topic, '$lease');
  }

  /** The level after `<prefix>/<under>/` when it is the topic's last; undefined otherwise. */
  private lastLevelUnder(topic: string, under: string): string | undefined {
    const start = `${this.prefix}/${under}/`;
    if (!topic.startsWith(start)) return undefined;
    const hubId = topic.slice(start.length);
    return hubId && !hubId.includes('/') ? hubId : undefined;
  }

  /** Where a hub sends its values in bursts (share/value-bursts.ts). */
  burst(hubId: string): string {
    return `${this.prefix}/$values/${hubId}`;
  }

  /** Filter for every hub's bursts. */
  get bursts(): string {
    return `${this.prefix}/$values/+`;
  }

  /** The hub whose burst a topic carries; undefined for other topics. */
  burstOf(topic: string): string | undefined {
    return this.lastLevelUnder(topic, '$values');
  }

  sync(token: string): string {
    return `${this.prefix}/$sync/${token}`;
  }

  /** Filter for every hub's presence and connections. */
  get hubs(): string {
    return `${this.prefix}/$hub/#`;
  }

  /** What a `$hub` topic is, and of which hub; undefined for other topics. */
  hubTopic(topic: string): HubTopic | undefined {
    const parts = topic.split('/');
    if (parts.length < this.levels + 2 || parts[this.levels] !== '$hub' || !topic.startsWith(`${this.prefix}/`)) return undefined;
    const hubId = parts[this.levels + 1]!;
    const rest = parts.slice(this.levels + 2);
    if (rest.length === 0) return { hubId, kind: 'presence' };
    if (rest.length === 1 && (rest[0] === 'connections' || rest[0] === 'answers' || rest[0] === 'role')) return { hubId, kind: rest[0] };
    if (rest.length === 2 && rest[0] === 'records' && rest[1]) return { hubId, kind: 'records', connectionId: rest[1] };
    return undefined;
  }
}

/** What an answer to a write carries: `{"ok":true}` or the error with its code. */
export type WriteAnswer = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly code: string };
