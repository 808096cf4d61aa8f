import { PassThrough } from 'node:stream';
import { validateFlow } from "../../lib/config/flow-file.js";
import { createLogger } from "../../lib/core/log.js";
import { Hub } from "../../lib/hub.js";
/** Validates a flow document as a file in `dir` would be, failing the spec on mistakes. */
export function flowOf(document, dir = '/virtual') {
    const result = validateFlow(document, `${dir}/flow.json5`);
    if (!result.ok)
        throw result.error;
    return result.flow;
}
/** Starts a hub on `document` and stops it when the spec ends. */
export async function startHub(t, document, { dir, ...options } = {}) {
    const hub = new Hub({ flow: flowOf(document, dir), ...options });
    t.teardown(() => hub.stop());
    await hub.start();
    return hub;
}
/** A JSON logger whose lines a spec can read. */
export function capturedLog() {
    const lines = [];
    const destination = new PassThrough();
    destination.on('data', (chunk) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))));
    return { log: createLogger({ destination, format: 'json' }), lines: () => lines };
}
/** The parameter at `address`, failing loudly when it is missing. */
export function param(hub, address) {
    const found = hub.graph.get(address);
    if (!found)
        throw new Error(`no parameter ${address}`);
    return found;
}
/** Records every value a parameter emits, with the time it came. */
export function record(t, parameter, now = () => 0) {
    const seen = [];
    const subscription = parameter.changes$.subscribe((v) => seen.push([now(), v]));
    t.teardown(() => subscription.unsubscribe());
    return seen;
}
