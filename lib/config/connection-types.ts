import { type ConnectionType, connectionTypeOf } from '../connections/connection.ts';
import { dummy } from '../connections/dummy/dummy.ts';
import { httpClient } from '../connections/http-client/http-client.ts';
import { emberConsumer } from '../connections/ember-consumer/ember-consumer.ts';
import { emberProvider } from '../connections/ember-provider/ember-provider.ts';
import { keyboard } from '../connections/keyboard/keyboard.ts';
import { mqttConnection } from '../connections/mqtt/mqtt.ts';
import { osc } from '../connections/osc/osc.ts';
import { restApi } from '../connections/rest-api/rest-api.ts';
import { schedule } from '../connections/schedule/schedule.ts';
import { serialType } from '../connections/serial/serial.ts';
import { tcpClientType } from '../connections/tcp-client/tcp-client.ts';
import { tcpServerType } from '../connections/tcp-server/tcp-server.ts';
import { timer } from '../connections/timer/timer.ts';
import { udpType } from '../connections/udp/udp.ts';
import { virtualCore } from '../connections/virtual-core/virtual-core.ts';
import { xmlFileOutput } from '../connections/xml-file-output/xml-file-output.ts';
import { scenes } from '../connections/scenes/scenes.ts';

/**
 * Every connection type the hub knows. A new type is a folder `lib/connections/<type>/`
 * named after it and one entry here; `npm run docs` then writes its reference page from its
 * settings' schema (spec/config/connection-types.spec.ts keeps both true).
 */
// biome-ignore format: one type a line, so that adding a type adds a line
export const connectionTypes: readonly ConnectionType[] = [
  connectionTypeOf(dummy),
  connectionTypeOf(timer),
  connectionTypeOf(restApi),
  connectionTypeOf(xmlFileOutput),
  connectionTypeOf(keyboard),
  connectionTypeOf(virtualCore),
  connectionTypeOf(mqttConnection),
  connectionTypeOf(tcpClientType),
  connectionTypeOf(tcpServerType),
  connectionTypeOf(udpType),
  connectionTypeOf(serialType),
  connectionTypeOf(osc),
  connectionTypeOf(httpClient),
  connectionTypeOf(emberProvider),
  connectionTypeOf(emberConsumer),
  connectionTypeOf(scenes),
  connectionTypeOf(schedule),
];
