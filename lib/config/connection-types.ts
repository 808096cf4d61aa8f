import type { TObject } from '@sinclair/typebox';
import { type ConnectionType, connectionTypeOf, type ModuleArchives } from '../connections/connection.ts';
import type { ServingTypeDefinition } from '../connections/serving.ts';
import type { DefinedConnectionType } from '../sdk/type.ts';
import { dummyType } from '../connections/dummy/dummy.ts';
import { httpClientType } from '../connections/http-client/http-client.ts';
import { emberConsumerType } from '../connections/ember-consumer/ember-consumer.ts';
import { nmosType } from '../connections/nmos/nmos.ts';
import { emberProviderType } from '../connections/ember-provider/ember-provider.ts';
import { keyboardType } from '../connections/keyboard/keyboard.ts';
import { midiType } from '../connections/midi/midi.ts';
import { mqttType } from '../connections/mqtt/mqtt.ts';
import { oscType } from '../connections/osc/osc.ts';
import { restApiType } from '../connections/rest-api/rest-api.ts';
import { satelliteType } from '../connections/satellite/satellite.ts';
import { scheduleType } from '../connections/schedule/schedule.ts';
import { serialType } from '../connections/serial/serial.ts';
import { tcpClientType } from '../connections/tcp-client/tcp-client.ts';
import { tcpServerType } from '../connections/tcp-server/tcp-server.ts';
import { timerType } from '../connections/timer/timer.ts';
import { tslUmdType } from '../connections/tsl-umd/tsl-umd.ts';
import { udpType } from '../connections/udp/udp.ts';
import { virtualCoreType } from '../connections/virtual-core/virtual-core.ts';
import { xmlFileOutputType } from '../connections/xml-file-output/xml-file-output.ts';
import { scenesType } from '../connections/scenes/scenes.ts';
import { companionModuleType } from '../connections/companion-module/companion-module.ts';

/** A built-in type as its module defines it, with what only a built-in may declare besides (`ModuleArchives`). */
type BuiltIn = (DefinedConnectionType<TObject, unknown> | ServingTypeDefinition<TObject, unknown>) & {
  readonly moduleArchives?: ModuleArchives;
};

/**
 * Every connection type the hub knows. A new type is a folder `lib/connections/<type>/`
 * named after it and one entry here; `npm run docs` then writes its reference page from its
 * settings' schema (spec/config/connection-types.spec.ts keeps both true).
 */
// biome-ignore format: one type a line, so that adding a type adds a line
const builtIns: readonly BuiltIn[] = [
  dummyType,
  timerType,
  restApiType,
  xmlFileOutputType,
  keyboardType,
  virtualCoreType,
  mqttType,
  tcpClientType,
  tcpServerType,
  udpType,
  serialType,
  oscType,
  httpClientType,
  emberProviderType,
  emberConsumerType,
  scenesType,
  scheduleType,
  tslUmdType,
  satelliteType,
  midiType,
  companionModuleType,
  nmosType,
];

export const connectionTypes: readonly ConnectionType[] = builtIns.map((definition) => ({
  ...connectionTypeOf(definition),
  ...(definition.moduleArchives && { moduleArchives: definition.moduleArchives }),
}));

/** A built-in type's definition by its name, for a process of its own that runs it (R-PK4); undefined for the types that serve the hub. */
export function builtInDefinition(type: string): DefinedConnectionType<TObject, unknown> | undefined {
  const definition = builtIns.find((candidate) => candidate.type === type);
  return definition && !('servesHub' in definition) ? definition : undefined;
}
