// @ts-check
/**
 * Requests to OBS as writes' outcomes: answered when OBS answered, and OBS's refusal as one
 * of this type's own codes (R-PK8).
 */
import { HubError } from 'patchbay-hub/connection';

/** @typedef {import('obs-websocket-js').OBSWebSocket} OBSWebSocket */
/** @typedef {(request: Parameters<OBSWebSocket['call']>[0], data?: Record<string, unknown>) => Promise<unknown>} Ask */

/**
 * OBS's answers to a refused request (obs-websocket's RequestStatus) as this type's own codes
 * (R-PK8), and what they mean: OBS 29 gives most of them without a comment.
 * @type {Record<number, { declared: string, means: string }>}
 */
const REFUSALS = {
  500: { declared: 'OBS_OUTPUT', means: 'the output is already running' },
  501: { declared: 'OBS_OUTPUT', means: 'the output is not running' },
  502: { declared: 'OBS_OUTPUT', means: 'the output is paused' },
  503: { declared: 'OBS_OUTPUT', means: 'the output is not paused' },
  504: { declared: 'OBS_OUTPUT', means: 'the output is switched off in OBS' },
  505: { declared: 'OBS_STUDIO_MODE', means: 'studio mode is on' },
  506: { declared: 'OBS_STUDIO_MODE', means: 'studio mode is off' },
  600: { declared: 'OBS_NOT_FOUND', means: 'OBS has no such scene, source or transition' },
};

/** Requests that start, stop or use an output: OBS says it cannot (no replay buffer set up, no virtual camera device) in general words. */
const OUTPUT_REQUEST = /Record|Stream|ReplayBuffer|VirtualCam|Output/;

/** @param {number} code @param {string} request */
function outputRefusal(code, request) {
  return (code === 604 || code === 702 || code === 703) && OUTPUT_REQUEST.test(request)
    ? { declared: 'OBS_OUTPUT', means: 'OBS cannot run the output now' }
    : undefined;
}

/**
 * A request to OBS as a write's outcome, through `obs`: answered when OBS answered it, with its refusal as this type's code.
 * @param {Pick<OBSWebSocket, 'call'>} obs
 * @returns {Ask}
 */
export function askOf(obs) {
  return (request, data) =>
    /** @type {Promise<unknown>} */ (obs.call(request, /** @type {never} */ (data))).catch((error) =>
      Promise.reject(refusal(error, request)),
    );
}

/**
 * OBS's refusal (the library rejects with `{ code, message }`) as this type's own code, or
 * the hub's timeout and link errors as they are.
 * @param {unknown} error @param {string} request
 */
function refusal(error, request) {
  if (error instanceof HubError) return error;
  const { code, message } = /** @type {{ code?: unknown, message?: unknown }} */ (error ?? {});
  const known = typeof code === 'number' ? (REFUSALS[code] ?? outputRefusal(code, request)) : undefined;
  const why = typeof message === 'string' && message ? message : (known?.means ?? 'no reason');
  const said = `OBS refused ${request}: ${why}${typeof code === 'number' ? ` (${code})` : ''}`;
  return new HubError('PB_BAD_ANSWER', said, { declared: known?.declared ?? 'OBS_REFUSED' });
}
