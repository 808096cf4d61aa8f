import { readFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import mqtt from 'mqtt';
import { eventually } from '../helpers/eventually.ts';
import { flowOf, param, startHub } from '../helpers/hub.ts';
import { brokerOfFile } from '../helpers/broker-tests.ts';
import { canRunBroker, whyNoBroker } from '../helpers/mosquitto.ts';

const broker = brokerOfFile();
const withBroker = canRunBroker ? test.serial : test.skip;

/** Home Assistant's keys, vendored (spec/fixtures/home-assistant): what a config must and may hold. */
const homeAssistant = JSON.parse(readFileSync(new URL('../fixtures/home-assistant/mqtt-discovery.json', import.meta.url), 'utf8')) as {
  common: string[];
  availability: { required: string[]; keys: string[] };
  device: { requiredOneOf: string[]; keys: string[] };
  origin: { required: string[]; keys: string[] };
  components: Record<string, { required: string[]; keys: string[]; enums?: Record<string, string[]>; numbers?: string[] }>;
};

/** What is wrong with a config by Home Assistant's documented keys; empty when nothing is. */
function mistakes(component: string, config: Record<string, unknown>): string[] {
  const found: string[] = [];
  const keys = homeAssistant.components[component];
  if (!keys) return [`${component} is no component of MQTT discovery`];
  for (const key of keys.required) if (!(key in config)) found.push(`${component} lacks ${key}`);
  for (const key of Object.keys(config))
    if (!keys.keys.includes(key) && !homeAssistant.common.includes(key)) found.push(`${component} takes no ${key}`);
  for (const [key, allowed] of Object.entries(keys.enums ?? {}))
    if (key in config && !allowed.includes(String(config[key]))) found.push(`${component}.${key} is none of ${allowed}`);
  for (const key of keys.numbers ?? [])
    if (key in config && typeof config[key] !== 'number') found.push(`${component}.${key} is no number`);
  for (const entry of (config['availability'] as Record<string, unknown>[] | undefined) ?? []) {
    for (const key of homeAssistant.availability.required) if (!(key in entry)) found.push(`availability lacks ${key}`);
    for (const key of Object.keys(entry)) if (!homeAssistant.availability.keys.includes(key)) found.push(`availability takes no ${key}`);
  }
  const device = config['device'] as Record<string, unknown> | undefined;
  if (device) {
    if (!homeAssistant.device.requiredOneOf.some((key) => key in device)) found.push('device lacks identifiers');
    for (const key of Object.keys(device)) if (!homeAssistant.device.keys.includes(key)) found.push(`device takes no ${key}`);
  }
  return found;
}

let specs = 0;

/** A plain MQTT client of the spec, on everything under the prefixes: what Home Assistant reads. */
async function homeAssistantSide(t: ExecutionContext, ...filters: string[]) {
  const client = await mqtt.connectAsync(broker.url, { reconnectPeriod: 100 });
  t.teardown(() => client.endAsync(true));
  const messages: { topic: string; payload: string }[] = [];
  client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString() }));
  await client.subscribeAsync(filters, { qos: 1 });
  /** The latest retained state: config topic → config, an empty payload removing it. */
  const configs = () => {
    const now = new Map<string, Record<string, unknown>>();
    for (const { topic, payload } of messages)
      if (topic.endsWith('/config')) payload === '' ? now.delete(topic) : now.set(topic, JSON.parse(payload) as Record<string, unknown>);
    return now;
  };
  const last = (topic: string) => messages.filter((m) => m.topic === topic).at(-1)?.payload;
  return { client, messages, configs, last };
}

const studio = { type: 'dummy', parameters: ['onair,B,false', 'level,I,0', 'gain,F,0.5', 'title,S,Morning', 'cue,T'] };

function flow(prefix: string, homeAssistantOption: object | undefined, parameters = studio.parameters) {
  return {
    connections: {
      studio: { ...studio, parameters },
      bus: {
        type: 'mqtt',
        url: broker.url,
        prefix,
        // gain is published but no command may write it: a sensor.
        setAccess: ['studio/onair', 'studio/level', 'studio/title', 'studio/cue'],
        ...(homeAssistantOption ? { homeAssistant: homeAssistantOption } : {}),
      },
    },
  };
}

withBroker(
  `each exposed parameter is announced as the entity its type and access make, with Home Assistant's keys, stable ids and the hub's availability (R-DS3)${whyNoBroker}`,
  async (t) => {
    const prefix = `ha${++specs}-${process.pid}`;
    const discovery = `${prefix}-discovery`;
    const side = await homeAssistantSide(t, `${discovery}/#`, `${prefix}/#`);
    const hub = await startHub(t, flow(prefix, { expose: ['studio/#'], prefix: discovery }));
    await eventually(
      () => side.configs().size === 5,
      () => `five configs; got ${[...side.configs().keys()]}`,
    );
    const byName = new Map([...side.configs()].map(([topic, config]) => [config['name'] as string, { topic, config }]));
    const component = (name: string) => byName.get(name)?.topic.split('/')[1];
    t.deepEqual(['onair', 'level', 'gain', 'title', 'cue'].map(component), ['switch', 'number', 'sensor', 'text', 'button']);
    for (const [topic, config] of side.configs()) t.deepEqual(mistakes(topic.split('/')[1] ?? '', config), [], topic);
    const onair = byName.get('onair')?.config as Record<string, unknown> & { availability: { topic: string }[] };
    t.is(onair['state_topic'], `${prefix}/studio/val/onair`);
    t.is(onair['command_topic'], `${prefix}/studio/set/onair`);
    await eventually(() => side.last(onair.availability[0]?.topic ?? '') === 'online', 'available');
    // The state topics carry what the entities read: the bridge publishes exposed parameters.
    await eventually(() => side.last(`${prefix}/studio/val/title`) === 'Morning', 'the value topic');
    const ids = [...side.configs().values()].map((config) => config['unique_id']).sort();
    t.is(new Set(ids).size, 5);

    // Stopped, the hub is unavailable; started again, the same ids on the same topics.
    await hub.stop();
    await eventually(() => side.last(onair.availability[0]?.topic ?? '') === 'offline', 'unavailable once stopped');
    const topics = [...side.configs().keys()].sort();
    side.messages.length = 0;
    await startHub(t, flow(prefix, { expose: ['studio/#'], prefix: discovery }));
    await eventually(() => side.configs().size === 5, 'announced again');
    t.deepEqual([...side.configs().keys()].sort(), topics);
    t.deepEqual([...side.configs().values()].map((config) => config['unique_id']).sort(), ids);
  },
);

withBroker(
  `a command from Home Assistant writes the parameter; a parameter a reload removes loses its config, and all go when the option does (R-DS3)${whyNoBroker}`,
  async (t) => {
    const prefix = `ha${++specs}-${process.pid}`;
    const discovery = `${prefix}-discovery`;
    const side = await homeAssistantSide(t, `${discovery}/#`);
    const option = { expose: ['studio/#'], prefix: discovery };
    const hub = await startHub(t, flow(prefix, option));
    await eventually(() => side.configs().size === 5, 'five configs');
    const configOf = (name: string) => [...side.configs().values()].find((config) => config['name'] === name) as Record<string, string>;
    const fires: unknown[] = [];
    param(hub, 'studio/cue').changes$.subscribe((v) => fires.push(v));
    await side.client.publishAsync(configOf('level')['command_topic'] ?? '', '42');
    await side.client.publishAsync(configOf('onair')['command_topic'] ?? '', configOf('onair')['payload_on'] ?? '');
    await side.client.publishAsync(configOf('cue')['command_topic'] ?? '', configOf('cue')['payload_press'] ?? '');
    await eventually(
      () => param(hub, 'studio/level').value === 42 && param(hub, 'studio/onair').value === true && fires.length === 1,
      'the writes',
    );
    // gain is a sensor: its set topic is refused (setAccess), as Home Assistant would never send.
    await side.client.publishAsync(`${prefix}/studio/set/gain`, '9');
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.is(param(hub, 'studio/gain').value, 0.5);

    await hub.reload(
      flowOf(
        flow(
          prefix,
          option,
          studio.parameters.filter((p) => !p.startsWith('title')),
        ),
      ),
    );
    await eventually(() => side.configs().size === 4, 'the title config removed');
    t.false([...side.configs().values()].some((config) => config['name'] === 'title'));

    await hub.reload(flowOf(flow(prefix, undefined)));
    await eventually(
      () => side.configs().size === 0,
      () => `every config removed; left ${[...side.configs().keys()]}`,
    );
    t.pass();
  },
);

withBroker(
  `exposed alone is shown, not writable: without setAccess every entity reads its value and a command on a set topic changes nothing${whyNoBroker}`,
  async (t) => {
    const prefix = `ha${++specs}-${process.pid}`;
    const discovery = `${prefix}-discovery`;
    const side = await homeAssistantSide(t, `${discovery}/#`);
    const { setAccess: _, ...bus } = flow(prefix, { expose: ['studio/#'], prefix: discovery }).connections.bus;
    const hub = await startHub(t, { connections: { studio, bus } });
    // A trigger that cannot be pressed has nothing to show: four entities, each without a command topic.
    await eventually(
      () => side.configs().size === 4,
      () => `four configs; got ${[...side.configs().keys()]}`,
    );
    t.deepEqual([...side.configs().keys()].map((topic) => topic.split('/')[1]).sort(), ['binary_sensor', 'sensor', 'sensor', 'sensor']);
    for (const config of side.configs().values()) t.false('command_topic' in config, String(config['name']));
    // Anyone on the broker may publish what Home Assistant would: refused all the same.
    await side.client.publishAsync(`${prefix}/studio/set/onair`, 'true');
    await side.client.publishAsync(`${prefix}/studio/set/level`, '42');
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.is(param(hub, 'studio/onair').value, false);
    t.is(param(hub, 'studio/level').value, 0);
  },
);
