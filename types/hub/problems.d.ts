import { type Problem, type StatusReport } from '../connections/connection.ts';
import type { RuleProblem } from '../rules/engine.ts';
import type { StoreHealth } from '../state/store.ts';
/** A rule's problem as the hub lists it. */
export declare const ruleProblem: ({ rule, code, message }: RuleProblem) => Problem;
/** A failed or degraded connection as a problem; nothing while it runs well. */
export declare function connectionProblem(id: string, { status, reason, code }: StatusReport): Problem | undefined;
/** A state store that cannot save as a problem; nothing while it can. */
export declare function stateProblem(folder: string, health: StoreHealth): Problem | undefined;
