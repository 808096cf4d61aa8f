import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const ticksPerSecond = 100; // USER_HZ on Linux
/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSeconds(pid) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
/** Resident memory of a process in bytes, from /proc. */
export function rssBytes(pid) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}
/**
 * Starts a server process and resolves once it says where it listens: a line matching
 * `listening on http://…:PORT` (patchbay's log) or `ready PORT` (the baselines).
 */
export function startServer(name, command, args, env = {}) {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    return new Promise((resolve, reject) => {
        let output = '';
        const look = (chunk) => {
            output += chunk.toString();
            const match = /listening on http:\/\/[^:]+:(\d+)|ready (\d+)/.exec(output);
            if (!match)
                return;
            child.stdout?.off('data', look);
            child.stderr?.off('data', look);
            child.stdout?.resume();
            child.stderr?.resume();
            resolve({ name, pid: child.pid, port: Number(match[1] ?? match[2]), stop: () => stopChild(child) });
        };
        child.stdout?.on('data', look);
        child.stderr?.on('data', look);
        child.on('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened:\n${output}`)));
    });
}
/** Forks one of bench/load/*.ts with tsx, for load generators that talk over IPC. */
export function forkLoad(script, args = []) {
    return fork(fileURLToPath(new URL(`../load/${script}`, import.meta.url)), args, {
        execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
}
/** Sends a request to a forked load process and waits for its answer of the same kind. */
export function ask(child, message) {
    return new Promise((resolve, reject) => {
        const onMessage = (answer) => {
            if (answer.cmd !== message.cmd)
                return;
            child.off('message', onMessage);
            if (answer.error)
                reject(new Error(answer.error));
            else
                resolve(answer);
        };
        child.on('message', onMessage);
        child.send(message);
    });
}
export function stopChild(child) {
    if (child.exitCode !== null || child.signalCode !== null)
        return Promise.resolve();
    return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}
