/**
 * What hubs of a site say of themselves on the broker, read defensively: a hub's description
 * of the connections it shares (`$hub/<hub id>/connections`), what this hub keeps of each
 * other hub, and JSON payloads that may be anything.
 */
import { type Access, type ValueType, valueTypes } from '../../sdk/index.ts';
import { Status } from '../../sdk/index.ts';
import type { ConnectionInfo } from '../../core/api-shapes.ts';

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
export function parseJson(payload: Buffer): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(payload.toString());
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const STATUSES = new Set<string>(Object.values(Status));
const ACCESSES = new Set<string>(['read-only', 'write-only', 'read-write']);

/** One connection of a hub's description, when it reads as one; nothing otherwise. */
export function readShared(item: unknown): SharedConnection[] {
  if (item === null || typeof item !== 'object') return [];
  const c = item as Record<string, unknown>;
  const text = (key: string) => (typeof c[key] === 'string' ? (c[key] as string) : '');
  if (!text('id') || !STATUSES.has(text('status')) || !Array.isArray(c['parameters'])) return [];
  const parameters = (c['parameters'] as unknown[]).filter(
    (p): p is [string, ValueType, Access] =>
      Array.isArray(p) && typeof p[0] === 'string' && valueTypes.includes(p[1] as ValueType) && ACCESSES.has(p[2] as string),
  );
  return [
    {
      id: text('id'),
      type: text('type'),
      status: text('status') as SharedConnection['status'],
      reason: text('reason'),
      ...(text('code') ? { code: text('code') } : {}),
      description: text('description'),
      location: text('location'),
      group: text('group'),
      parameters,
    },
  ];
}
