import type { TObject } from '@sinclair/typebox';
import { type ConnectionType, type TypeOrigin } from '../connections/connection.ts';
import type { DefinedConnectionType } from '../sdk/type.ts';
import type { TypeDescription } from './type-host-messages.ts';
import type { TypeHost } from './type-host.ts';
/** Where a package type's instance puts its metrics' samples in its details: the hub cannot run its `samples`. */
export declare const SAMPLES_KEY = "metricSamples";
/** A type's details with its metrics' samples, made where the instance runs. */
export declare function withSamples(definition: Pick<DefinedConnectionType, 'metrics'>, details: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined;
/** The type's type as the hub uses it; `failure` makes a plan of a connection that fails at start. */
export declare function packageTypeOf(description: TypeDescription, settings: TObject, host: TypeHost, origin: TypeOrigin & {
    readonly module: string;
}, label: string): ConnectionType;
