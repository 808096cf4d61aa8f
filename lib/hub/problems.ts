import { type Problem, Status, type StatusReport } from '../connections/connection.ts';
import type { RuleProblem } from '../rules/engine.ts';
import type { StoreHealth } from '../state/store.ts';

/** A rule's problem as the hub lists it. */
export const ruleProblem = ({ rule, code, message }: RuleProblem): Problem => ({ source: 'rule', id: rule, code, message });

/** A failed or degraded connection as a problem; nothing while it runs well. */
export function connectionProblem(id: string, { status, reason, code }: StatusReport): Problem | undefined {
  if (status !== Status.Failed && status !== Status.Degraded) return undefined;
  return { source: 'connection', id, code: code ?? 'PB_START_FAILED', message: `${status}: ${reason}` };
}

/** A state store that cannot save as a problem; nothing while it can. */
export function stateProblem(folder: string, health: StoreHealth): Problem | undefined {
  return health.ok ? undefined : { source: 'state', id: folder, code: health.code, message: health.reason };
}
