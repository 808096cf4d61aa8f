/**
 * What an `ember-provider` connection is written as (its settings), and what they are once
 * parsed: the address patterns compiled, the peers it lets in, the matrices' ids checked.
 */
import { Type } from '@sinclair/typebox';
import {
  allowSetting,
  type Checked,
  checked,
  type Issue,
  type Parsed,
  Peers,
  withDefault,
  AddressPatterns,
  checkParameterId,
  listenAddressSetting,
  portSetting,
} from '../../sdk/index.ts';
import { matrixDeclaration } from './served-matrix.ts';

/**
 * A consumer's message at most, by default: commands and values, a few hundred bytes each. It
 * is also what one consumer may leave waiting as a message whose last frame never comes.
 */
const CONSUMER_MESSAGE_BYTES = 64 * 1024;

export const emberProviderSettings = Type.Object({
  port: withDefault(portSetting('TCP port consumers connect to; 0 picks a free one.', { anyFree: true }), 9000),
  bindIp: listenAddressSetting('The address to listen on; empty listens on every interface.'),
  expose: withDefault(
    Type.Array(Type.String({ minLength: 1, description: 'An address pattern (`studio/#`, `+/onair`).' }), {
      description: 'Address patterns of the parameters to serve; none by default.',
    }),
    [],
  ),
  write: withDefault(
    Type.Array(Type.String({ minLength: 1, description: 'An address pattern (`studio/#`, `+/onair`).' }), {
      description:
        "Address patterns of the served parameters (and matrices' targets) a consumer may change: setValue, invoke, connect; none by default (Ember+ has no credentials: what this lets, anyone who reaches the port may).",
    }),
    [],
  ),
  allow: allowSetting,
  maxConsumers: withDefault(
    Type.Integer({ minimum: 1, maximum: 1024, description: 'Consumers connected at once at most; one more is closed at once.' }),
    64,
  ),
  maxQueuedBytes: withDefault(
    Type.Integer({ minimum: 1024, description: 'Bytes that may wait for one consumer; a consumer that stops reading is cut off past it.' }),
    8 * 1024 * 1024,
  ),
  maxMessageBytes: withDefault(
    Type.Integer({
      minimum: 1024,
      description:
        'Bytes of one message from a consumer, all its frames together; a larger one is dropped. A consumer asks and sets: its messages are small.',
    }),
    CONSUMER_MESSAGE_BYTES,
  ),
  matrices: withDefault(
    Type.Array(matrixDeclaration, {
      description: 'Matrices (routers) to serve, each held in parameters `<id>/targets/<t>/source` (or `sources` for nToN).',
    }),
    [],
  ),
});

export type EmberProviderSettings = Parsed<typeof emberProviderSettings> & {
  /** `expose`, compiled: the parameters served. */
  readonly patterns: AddressPatterns;
  /** `write`, compiled: the served parameters a consumer may change. */
  readonly writable: AddressPatterns;
  /** `allow`, compiled: the consumers let in. */
  readonly peers: Peers;
};

/** Checks what the schema cannot: the address patterns, the peers, and matrix ids that are parameter ids and hold no other. */
export function parseEmberProviderSettings(written: Parsed<typeof emberProviderSettings>): Checked<EmberProviderSettings> {
  const patterns = AddressPatterns.compile(written.expose);
  if (!patterns.ok) return { ok: false, issues: [{ path: ['expose'], message: patterns.error.message }] };
  const writable = AddressPatterns.compile(written.write);
  if (!writable.ok) return { ok: false, issues: [{ path: ['write'], message: writable.error.message }] };
  const peers = Peers.compile(written.allow);
  if (Array.isArray(peers)) return { ok: false, issues: peers };
  const issues: Issue[] = [];
  const ids = new Set<string>();
  written.matrices.forEach(({ id }, index) => {
    const checkedId = checkParameterId(`${id}/targets/0/source`);
    if (!checkedId.ok) issues.push({ path: ['matrices', index, 'id'], message: `not a parameter id: ${checkedId.error.message}` });
    else if ([...ids].some((other) => other === id || other.startsWith(`${id}/`) || id.startsWith(`${other}/`)))
      issues.push({ path: ['matrices', index, 'id'], message: `"${id}" is taken by another matrix, or holds one` });
    ids.add(id);
  });
  return checked(issues, { ...written, patterns: patterns.value, writable: writable.value, peers });
}
