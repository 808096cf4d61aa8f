import type { ConnectionType } from '../connections/connection.ts';
import { dummy } from '../connections/dummy/dummy.ts';
import { keyboard } from '../connections/keyboard/keyboard.ts';
import { mqttConnection } from '../connections/mqtt/mqtt.ts';
import { restApi } from '../connections/rest-api/rest-api.ts';
import { timer } from '../connections/timer/timer.ts';
import { virtualCore } from '../connections/virtual-core/virtual-core.ts';
import { xmlFileOutput } from '../connections/xml-file-output/xml-file-output.ts';

/** Every connection type the hub knows. Adding a type means adding it here, and nowhere else. */
export const connectionTypes: readonly ConnectionType[] = [dummy, timer, restApi, xmlFileOutput, keyboard, virtualCore, mqttConnection];
