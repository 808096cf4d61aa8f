import type { ConnectionType } from './connection.ts';
import { dummy } from './dummy.ts';
import { keyboard } from './keyboard/keyboard.ts';
import { restApi } from './rest-api.ts';
import { timer } from './timer.ts';
import { virtualCore } from './virtual-core/virtual-core.ts';
import { xmlFileOutput } from './xml-file-output/xml-file-output.ts';

/** Every connection type the hub knows. Adding a type means adding it here, and nowhere else. */
export const connectionTypes: readonly ConnectionType[] = [restApi, dummy, timer, xmlFileOutput, keyboard, virtualCore];

export function findConnectionType(type: string): ConnectionType | undefined {
  return connectionTypes.find((t) => t.type === type);
}
