import type { TObject } from '@sinclair/typebox';
import { type ConnectionType, connectionTypeOf } from '../connections/connection.ts';
import type { ServingTypeDefinition } from '../connections/serving.ts';
import type { DefinedConnectionType } from '../sdk/type.ts';
import { dummy } from '../connections/dummy/dummy.ts';
import { httpClient } from '../connections/http-client/http-client.ts';
import { emberConsumer } from '../connections/ember-consumer/ember-consumer.ts';
import { emberProvider } from '../connections/ember-provider/ember-provider.ts';
import { keyboard } from '../connections/keyboard/keyboard.ts';
import { midi } from '../connections/midi/midi.ts';
import { mqttConnection } from '../connections/mqtt/mqtt.ts';
import { osc } from '../connections/osc/osc.ts';
import { restApi } from '../connections/rest-api/rest-api.ts';
import { satellite } from '../connections/satellite/satellite.ts';
import { schedule } from '../connections/schedule/schedule.ts';
import { serialType } from '../connections/serial/serial.ts';
import { tcpClientType } from '../connections/tcp-client/tcp-client.ts';
import { tcpServerType } from '../connections/tcp-server/tcp-server.ts';
import { timer } from '../connections/timer/timer.ts';
import { tslUmd } from '../connections/tsl-umd/tsl-umd.ts';
import { udpType } from '../connections/udp/udp.ts';
import { virtualCore } from '../connections/virtual-core/virtual-core.ts';
import { xmlFileOutput } from '../connections/xml-file-output/xml-file-output.ts';
import { scenes } from '../connections/scenes/scenes.ts';

/** A built-in type as its module defines it. */
type BuiltIn = DefinedConnectionType<TObject, unknown> | ServingTypeDefinition<TObject, unknown>;

/**
 * Every connection type the hub knows. A new type is a folder `lib/connections/<type>/`
 * named after it and one entry here; `npm run docs` then writes its reference page from its
 * settings' schema (spec/config/connection-types.spec.ts keeps both true).
 */
// biome-ignore format: one type a line, so that adding a type adds a line
const builtIns: readonly BuiltIn[] = [
  dummy,
  timer,
  restApi,
  xmlFileOutput,
  keyboard,
  virtualCore,
  mqttConnection,
  tcpClientType,
  tcpServerType,
  udpType,
  serialType,
  osc,
  httpClient,
  emberProvider,
  emberConsumer,
  scenes,
  schedule,
  tslUmd,
  satellite,
  midi,
];

export const connectionTypes: readonly ConnectionType[] = builtIns.map((definition) => connectionTypeOf(definition));

/** A built-in type's definition by its name, for a process of its own that runs it (R-PK4); undefined for the types that serve the hub. */
export function builtInDefinition(type: string): DefinedConnectionType<TObject, unknown> | undefined {
  const definition = builtIns.find((candidate) => candidate.type === type);
  return definition && !('servesHub' in definition) ? definition : undefined;
}
