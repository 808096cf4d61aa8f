import { type ErrorCode, errorTable, HubError, reasonOf } from '../../core/errors.ts';
import type { ParameterSpec, SetResult } from '../../core/parameter.ts';
import type { Value } from '../../core/value.ts';
import type { WriteHandler } from '../flow-api.ts';
import { current, type RunningFlow } from './running-flow.ts';

const TAKEN: SetResult = { ok: true, value: true };

/**
 * The `forward` of a parameter whose flow answers its writes (`onWrite`, R-R6): the
 * writer — `/update`, the WebSocket, a rule, another hub — hears the handler's answer as it
 * hears a device's (R-G1), and the value is stored, with the writer as who changed it, only
 * once the write is taken. A refusal returned at once is the write's result; an answer that
 * comes later goes to `answered`. A handler that throws, rejects or answers something else
 * is its flow failing: the flow is stopped and the writer hears PB_CODE_FLOW.
 */
export function answeredBy(
  handler: WriteHandler,
  flow: RunningFlow,
  store: (value: Value, by: string) => void,
): NonNullable<ParameterSpec['forward']> {
  const failed = (error: unknown): SetResult => {
    flow.fail(error);
    return { ok: false, error: new HubError('PB_CODE_FLOW', `code flow ${flow.path} failed to answer a write: ${reasonOf(error)}`) };
  };
  return (value, origin, answered) => {
    const settle = (answer: unknown): SetResult => {
      const result = resultOf(answer);
      if (!result.ok) return failed(new Error(result.why));
      if (result.value.ok) store(value, origin ?? 'a client');
      return result.value;
    };
    let answer: unknown;
    try {
      answer = current.run(flow, () => handler(value, origin));
    } catch (error) {
      return failed(error);
    }
    if (typeof (answer as { then?: unknown } | undefined)?.then !== 'function') {
      const result = settle(answer);
      if (result.ok) answered?.(result);
      return result;
    }
    Promise.resolve(answer).then(
      (later: unknown) => answered?.(settle(later)),
      (error: unknown) => answered?.(failed(error)),
    );
    return TAKEN;
  };
}

/** A handler's answer as a write's result; `why` when it is none the hub can tell a writer. */
function resultOf(answer: unknown): { ok: true; value: SetResult } | { ok: false; why: string } {
  if (answer === undefined) return { ok: true, value: TAKEN };
  const { ok, error } = (answer ?? {}) as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  if (ok === true) return { ok: true, value: TAKEN };
  if (ok === false && typeof error?.message === 'string' && typeof error.code === 'string' && Object.hasOwn(errorTable, error.code)) {
    return { ok: true, value: { ok: false, error: new HubError(error.code as ErrorCode, error.message) } };
  }
  const shown = ok === false && typeof error?.code === 'string' ? `the unknown code ${error.code}` : JSON.stringify(answer);
  return {
    ok: false,
    why: `its onWrite answered ${shown}, not nothing, { ok: true } or { ok: false, error: { code, message } } with a code of the hub`,
  };
}
