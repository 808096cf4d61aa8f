import type { TObject } from '@sinclair/typebox';
import { type ConnectionType } from '../connections/connection.ts';
import type { DefinedConnectionType } from '../sdk/type.ts';
export declare const connectionTypes: readonly ConnectionType[];
/** A built-in type's definition by its name, for a process of its own that runs it (R-PK4); undefined for the types that serve the hub. */
export declare function builtInDefinition(type: string): DefinedConnectionType<TObject, unknown> | undefined;
