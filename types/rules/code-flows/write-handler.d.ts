import type { ParameterSpec } from '../../core/parameter.ts';
import type { Value } from '../../core/value.ts';
import type { WriteHandler } from '../flow-api.ts';
import { type RunningFlow } from './running-flow.ts';
/**
 * The `forward` of a parameter whose flow answers its writes (`onWrite`, R-R6): the
 * writer — `/update`, the WebSocket, a rule, another hub — hears the handler's answer as it
 * hears a device's (R-G1), and the value is stored, with the writer as who changed it, only
 * once the write is taken. A refusal returned at once is the write's result; an answer that
 * comes later goes to `answered`. A handler that throws, rejects or answers something else
 * is its flow failing: the flow is stopped and the writer hears PB_CODE_FLOW.
 */
export declare function answeredBy(handler: WriteHandler, flow: RunningFlow, store: (value: Value, by: string) => void): NonNullable<ParameterSpec['forward']>;
