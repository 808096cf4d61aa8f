import type { ConnectionType } from './connection.ts';
import { dummy } from './dummy.ts';
import { restApi } from './rest-api.ts';
import { timer } from './timer.ts';

/** Every connection type the hub knows. Adding a type means adding it here, and nowhere else. */
export const connectionTypes: readonly ConnectionType[] = [restApi, dummy, timer];

export function findConnectionType(type: string): ConnectionType | undefined {
  return connectionTypes.find((t) => t.type === type);
}
