/**
 * What hubs of a site say of themselves on the broker, read defensively: a hub's description
 * of the connections it shares (`$hub/<hub id>/connections`), what this hub keeps of each
 * other hub, and JSON payloads that may be anything.
 */
import { type Access, type ValueType } from '../../../sdk/index.ts';
import type { ConnectionInfo } from '../../serving.ts';
/** A connection as its owner describes it on the broker. */
export interface SharedConnection {
    readonly id: string;
    readonly type: string;
    readonly status: ConnectionInfo['status'];
    readonly reason: string;
    readonly code?: string;
    readonly description: string;
    readonly location: string;
    readonly group: string;
    /** `[id, type, access]` of each shared parameter. */
    readonly parameters: readonly (readonly [string, ValueType, Access])[];
}
/** Another hub's connection, and when this hub first heard it claimed: the first claim heard owns the id. */
export interface Claimed extends SharedConnection {
    readonly heard: number;
}
/** What this hub knows of another hub of the site. */
export interface OtherHub {
    online: boolean;
    /** Its broker session, as its presence says: what a write forwarded to it, or a renewal sent to it, is bound to. */
    session: string | undefined;
    connections: ReadonlyMap<string, Claimed>;
}
/** A JSON object from a payload; undefined for anything else. */
export declare function parseJson(payload: Buffer): Record<string, unknown> | undefined;
/** One connection of a hub's description, when it reads as one; nothing otherwise. */
export declare function readShared(item: unknown): SharedConnection[];
