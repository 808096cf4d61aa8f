/**
 * An answer to a request: read within `maxBodyBytes` (R-G4), then put into the request's
 * parameters — its status, its body, and the values `extract` points at.
 */
import { type OwnedParameter } from '../../sdk/index.ts';
import type { Request } from './settings.ts';
/** Reads at most `maxBodyBytes` of the answer: past it, the rest is not read. */
export declare function readBody(response: Response, controller: AbortController, maxBodyBytes: number): Promise<string>;
/** Reports the answer's status and body; fails on a status of 400 or more, or on a value `extract` did not find. */
export declare function answered(request: Request, status: number, body: string, parameters: ReadonlyMap<string, OwnedParameter>): void;
