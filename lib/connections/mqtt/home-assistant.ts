/**
 * Home Assistant MQTT discovery (R-DS3): one retained config per parameter that
 * `homeAssistant.expose` matches, under `<prefix>/<component>/<node>/<object>/config`, so
 * the building's automation finds the hub's parameters as entities — a device per
 * connection. The entities read the bridge's value topics and command its write topics:
 * exposed parameters are published (settings.ts adds `expose` to `publish`), and a command
 * is a hub write under `setAccess` like any other (bridge.ts). Availability follows the
 * hub's presence: its `$hub` presence with `hub`, else a topic of its own with the link's
 * last will. What it published is kept in the connection's records, so a config whose
 * parameter went, or every config once the option is turned off, is removed (an empty
 * retained message) even across a restart.
 */
import type { Subscription } from 'rxjs';
import type { ConnectionContext, Parameter } from '../../sdk/index.ts';
import type { BrokerLink } from '../../broker/broker-link.ts';
import type { HomeAssistantSettings, MqttSettings } from './settings.ts';

/** Where an entity reads whether the hub is there. */
export interface Availability {
  readonly topic: string;
  /** For a JSON presence (`{"online": true}`): how Home Assistant reads it. */
  readonly template?: string;
}

/** The record of the config topics published: what to remove when they are no longer wanted. */
const RECORD = 'home assistant configs';

/** Whether configs were announced and not yet removed: a connection whose option is gone still removes them. */
export const hasAnnounced = (records: ConnectionContext['records']) => records.get(RECORD) !== undefined;

/** The last will and the first message of the availability topic of a connection without `hub`. */
export const OFFLINE = 'offline';
export const ONLINE = 'online';

/** An id Home Assistant takes in a topic and as `unique_id`: `[a-zA-Z0-9_-]`, every other character written as `_<hex>`, so two addresses never meet. */
export function discoveryId(text: string): string {
  return text.replace(/[^a-zA-Z0-9-]/g, (c) => `_${c.codePointAt(0)?.toString(16)}`);
}

/** The entity a parameter is, by its type and whether a command may write it (R-DS3). */
function componentOf(parameter: Parameter, writable: boolean): string | undefined {
  switch (parameter.type) {
    case 'B':
      return writable ? 'switch' : 'binary_sensor';
    case 'I':
    case 'F':
      return writable ? 'number' : 'sensor';
    case 'S':
      return writable ? 'text' : 'sensor';
    case 'T':
      // A trigger that cannot be pressed is nothing Home Assistant shows.
      return writable ? 'button' : undefined;
  }
}

export class HomeAssistant {
  private readonly node: string;
  private readonly watching: Subscription;
  /** Config topic of each exposed parameter, by address. */
  private readonly configs = new Map<string, string>();
  private up = false;

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: MqttSettings,
    private readonly options: HomeAssistantSettings | undefined,
    private readonly link: BrokerLink,
    private readonly availability: Availability,
    nodeId: string,
  ) {
    this.node = `patchbay_${discoveryId(nodeId)}`;
    const { graph } = context;
    this.watching = graph.added$.subscribe((parameter) => this.announce(parameter));
    this.watching.add(graph.removed$.subscribe((parameter) => this.withdraw(parameter.address)));
    this.watching.add(
      graph.tables$.subscribe((table) => {
        for (const parameter of table.parameters()) table.added ? this.announce(parameter) : this.withdraw(parameter.address);
      }),
    );
  }

  /** Connected: every config is published again, and those recorded but no longer wanted removed. */
  connected(): void {
    this.up = true;
    this.configs.clear();
    if (this.options) for (const parameter of this.context.graph.all()) this.announce(parameter, false);
    const recorded = this.context.records.get(RECORD);
    const wanted = new Set(this.configs.values());
    for (const topic of Array.isArray(recorded) ? recorded : [])
      if (typeof topic === 'string' && !wanted.has(topic)) this.publish(topic, '');
    this.record();
  }

  disconnected(): void {
    this.up = false;
  }

  stop(): void {
    this.watching.unsubscribe();
  }

  /** Publishes the config of a parameter the option exposes. */
  private announce(parameter: Parameter, record = true): void {
    if (!this.up || !this.options?.expose.matches(parameter.address) || parameter.mirrored) return;
    const writable = parameter.access !== 'read-only' && this.settings.setAccess.matches(parameter.address);
    const component = componentOf(parameter, writable);
    if (!component) return;
    const object = discoveryId(parameter.address);
    const topic = `${this.options.prefix}/${component}/${this.node}/${object}/config`;
    const previous = this.configs.get(parameter.address);
    if (previous !== undefined && previous !== topic) this.publish(previous, '');
    this.configs.set(parameter.address, topic);
    this.publish(topic, JSON.stringify(this.config(parameter, component, writable)));
    if (record) this.record();
  }

  /** Removes the config of a parameter that went. */
  private withdraw(address: string): void {
    const topic = this.configs.get(address);
    if (topic === undefined) return;
    this.configs.delete(address);
    if (!this.up) return;
    this.publish(topic, '');
    this.record();
  }

  private config(parameter: Parameter, component: string, writable: boolean): Record<string, unknown> {
    const { layout } = this.settings;
    const address = parameter.address;
    const readable = parameter.access !== 'write-only' && parameter.type !== 'T';
    const { topic, template } = this.availability;
    return {
      name: parameter.id,
      unique_id: `${this.node}_${discoveryId(address)}`,
      ...(readable ? { state_topic: layout.value(address) } : {}),
      ...(writable ? { command_topic: layout.write(address) } : {}),
      availability: [
        { topic, payload_available: ONLINE, payload_not_available: OFFLINE, ...(template ? { value_template: template } : {}) },
      ],
      device: {
        identifiers: [`${this.node}_${discoveryId(parameter.connectionId)}`],
        name: parameter.connectionId,
        manufacturer: 'patchbay',
      },
      origin: { name: 'patchbay' },
      ...this.componentKeys(parameter, component),
    };
  }

  /** What each component needs beyond the common keys; values travel as the bridge writes them (`true`, `42`, `0.5`, text). */
  private componentKeys(parameter: Parameter, component: string): Record<string, unknown> {
    switch (component) {
      case 'switch':
        return { payload_on: 'true', payload_off: 'false', state_on: 'true', state_off: 'false' };
      case 'binary_sensor':
        return { payload_on: 'true', payload_off: 'false' };
      case 'number':
        // Home Assistant's own range is 1 to 100; the hub's parameters carry none, so the widest a box can take.
        return { min: -1e15, max: 1e15, step: parameter.type === 'I' ? 1 : 0.001, mode: 'box' };
      case 'sensor':
        return parameter.type === 'S' ? {} : { state_class: 'measurement' };
      case 'text':
        return { mode: 'text' };
      case 'button':
        return { payload_press: 'true' };
      default:
        return {};
    }
  }

  private publish(topic: string, payload: string): void {
    this.link.publish(topic, payload, { qos: this.settings.qos, retain: true }, 'drop');
  }

  private record(): void {
    const topics = [...this.configs.values()];
    this.context.records.set(RECORD, topics.length > 0 ? topics : undefined);
  }
}
