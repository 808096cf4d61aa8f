import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from "./eventually.js";
export const bin = fileURLToPath(new URL('../../bin/patchbay.js', import.meta.url));
/**
 * Runs `command` (default: this checkout's `patchbay run <flow> --log-format json`) as a
 * real process, stopped with SIGKILL when the spec ends, and resolves once its rest-api
 * listens and the hub runs.
 */
export async function runHub(t, flow, { args = [], command = [process.execPath, bin], cwd } = {}) {
    const [file, ...rest] = command;
    const child = spawn(file, [...rest, 'run', flow, '--log-format', 'json', ...args], { stdio: ['ignore', 'ignore', 'pipe'], ...(cwd ? { cwd } : {}) });
    t.teardown(() => void child.kill('SIGKILL'));
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    let log = '';
    child.stderr?.on('data', (chunk) => (log += chunk.toString()));
    await eventually(() => log.includes('"msg":"running:') || child.exitCode !== null, `the hub to start (log so far: ${log})`, 30_000);
    if (child.exitCode !== null)
        throw new Error(`the hub exited with ${child.exitCode}: ${log}`);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1]);
    const base = `http://127.0.0.1:${port}`;
    const text = async (url) => {
        const response = await fetch(url);
        return response.ok ? response.text() : `HTTP ${response.status}`;
    };
    return {
        child,
        port,
        base,
        exited,
        log: () => log,
        messages: () => log
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line).msg),
        read: (address) => text(`${base}/parameters/${address}`),
        write: (address, value) => text(`${base}/update?parameter=${encodeURIComponent(address)}&value=${encodeURIComponent(value)}`),
        problems: async () => (await (await fetch(`${base}/problems`)).json()),
    };
}
/** Sends SIGTERM and resolves with the exit status, or 'still running' after 15 s. */
export async function terminate(hub) {
    hub.child.kill('SIGTERM');
    return Promise.race([hub.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000))]);
}
