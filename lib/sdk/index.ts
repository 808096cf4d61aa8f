/**
 * `patchbay-hub/connection`: the whole contract a connection type is written against (R-PK2),
 * built-in or from a package. One file a concept:
 *
 * - `type.ts`: what a type declares (`defineConnectionType`) and the contract's `apiVersion`;
 * - `context.ts`: what a running connection gets from the hub, and the statuses it reports;
 * - `settings.ts`: settings schemas with defaults, and parsing them with paths; `setting-shapes.ts`: a host, a port, a listening address, a value type, a server's origins and host names;
 * - `parameter-lines.ts`, `ranges.ts`: parameters declared as lines (`out/{0..39}:I`);
 * - `device/`: the device kit, transports written once (link, TCP, UDP, serial, lines);
 * - `surfaces.ts`: a key's press as the origin of what it writes, naming its surface as Companion does.
 *
 * Parameters, values, addresses and their patterns, errors, time and sparse logging come
 * from the hub's own core, re-exported here, so built-in types import this face alone. A
 * package imports `patchbay-hub/connection` and nothing else of patchbay.
 */

// What a type declares.
export {
  apiVersion,
  type Claim,
  type SettingWrite,
  type ConnectionMetric,
  type ConnectionTypeDefinition,
  type DeclaredParameter,
  type DefinedConnectionType,
  defineConnectionType,
  type Discovery,
  type Link,
  type ParameterDoc,
  type ParseContext,
  type SettingSchema,
  type StopReason,
  type TypedInstance,
} from './type.ts';

// What it gets while it runs.
export { type ConnectionContext, type Fence, type GraphView, type Logger, type Records, Status, type StatusReport } from './context.ts';

// Its settings.
export { appliesWhen, asWritten, type Checked, checked, type Issue, type Parsed, type TDefaulted, withDefault } from './settings.ts';
export {
  hostnamesSetting,
  hostSetting,
  listenAddressSetting,
  originsSetting,
  portSetting,
  valueTypeSetting,
} from './setting-shapes.ts';
export { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
export {
  describeLines,
  describeSetting,
  type ParameterLine,
  type ParameterLines,
  parameterLinesSetting,
  parseParameterLines,
} from './parameter-lines.ts';
export { expandRanges, hasRange, MAX_RANGE_NAMES } from './ranges.ts';

// Surfaces' keys.
export { keyOrigin, satelliteSurface, surfaceOf } from './surfaces.ts';

// Parameters and values.
export {
  type Answered,
  Access,
  type Choice,
  type OwnedParameter,
  type Parameter,
  type ParameterMeta,
  type ParameterSpec,
  type SetResult,
} from '../core/parameter.ts';
export type { ParameterRow, ParameterTable } from '../core/graph.ts';
export { headline, MOST_CHOICES, MOST_LABEL } from '../core/parameter-meta.ts';
export { convert, FIRE, type Json, toWire, type Value, ValueType, valueTypes } from '../core/value.ts';
export { checkParameterId, parseAddress, segmentPattern } from '../core/address.ts';
export { AddressPatterns } from '../core/address-pattern.ts';
export { parsePointer, resolvePointer } from '../core/json-pointer.ts';
export { compileRegex, type GroupPattern, type Pattern } from '../core/regex.ts';
export { compileExpression, type Expression, ExpressionError } from '../core/expression.ts';

// Errors and time.
export { type ErrorCode, fail, HubError, ok, reasonOf, type Result } from '../core/errors.ts';
export { after, afterTurn, every, realTime, type Scheduler } from '../core/scheduler.ts';
export { SparseLog } from '../core/sparse-log.ts';
export { RepeatedLines } from '../core/repeated-lines.ts';

// Processes a connection runs itself (a device's own program): when to start one again, its memory.
export {
  DEFAULT_MAX_MEMORY_MB,
  MEMORY_MARGIN_MB,
  ownEntry,
  packageEnvironment,
  privateView,
  Restarts,
  residentMb,
  restartDelayMs,
  STEADY_MS,
} from './process/processes.ts';
export { PerSecond } from '../core/per-second.ts';
export { Paced } from '../core/paced.ts';
export { type ChannelEvents, type ChannelOptions, framed, isFlatRecord, NodeChannel, spawnWithChannel } from './process/node-channel.ts';
export { type ChildEvents, ChildLink, type ChildPlan, type Watch } from './process/child-link.ts';
export {
  type Called,
  Channel,
  type ChannelOptions as WireChannelOptions,
  type Commands,
  type Handlers,
  ownCodec,
  type PayloadOf,
  type Told,
  type WireCodec,
  type WireMessage,
} from './process/channel.ts';
export { OutputLines, type OutputLinesOptions } from './process/output-lines.ts';
export { BoundedWorker, type BoundedWorkerOptions, siblingModule, type WorkerTurns } from './process/bounded-worker.ts';
export { startThread, type ThreadPlan } from './process/thread.ts';
export { type Run, Supervisor, type SupervisorOptions } from './process/supervisor.ts';

// The device kit.
export { DEFAULT_TIMEOUT_MS, DeviceLink, type DeviceLinkOptions, type LinkAttempt, type LinkProtocol } from './device/device-link.ts';
export { ClientLink, type ClientLinkOptions, type LinkClient } from './device/client-link.ts';
export { type Command, type CommandOptions, CommandedParameters, type CommandedSpec } from './device/commanded-parameters.ts';
export { Stepped } from './device/stepped.ts';
export {
  DEFAULT_MAX_PARAMETERS,
  type DeviceParameterSpec,
  DeviceParameters,
  type DeviceSend,
  parameterIdOf,
} from './device/device-parameters.ts';
export { droppedMetric, Overruns } from './device/overruns.ts';
export { lineSettings } from './device/line-settings.ts';
export type { FrameStreams, LineTransport } from './device/line-device.ts';
export { defineLineType, type LineTypeSettings } from './device/line-type.ts';
export {
  connectTimeoutSetting,
  DEFAULT_CONNECT_TIMEOUT_MS,
  MAX_UNREAD_BYTES,
  TcpConnection,
  type TcpHandlers,
  type TcpListenOptions,
  TcpListener,
  type TcpTarget,
  unreachable,
  writeBounded,
} from './device/tcp.ts';
export { roomForBursts, UdpEndpoint, type UdpOptions } from './device/udp.ts';
export { allowSetting, openListenerWarnings, Peers } from './device/peers.ts';
