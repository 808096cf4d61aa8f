import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ask, forkLoad, stopChild } from "./processes.js";
const source = fileURLToPath(new URL('../load/wsload.c', import.meta.url));
const binary = join(tmpdir(), 'patchbay-wsload');
/** Builds the C client when gcc is there (it is on these machines); undefined otherwise. */
function nativeClientBinary() {
    if (existsSync(binary) && statSync(binary).mtimeMs > statSync(source).mtimeMs)
        return binary;
    try {
        execFileSync('gcc', ['-O2', '-o', binary, source], { stdio: 'pipe' });
        return binary;
    }
    catch {
        return undefined;
    }
}
/** The C client over stdin/stdout lines: about a microsecond per message. */
class NativeClients {
    child;
    kind = 'C (epoll)';
    answers = [];
    constructor(child) {
        this.child = child;
        createInterface({ input: child.stdout }).on('line', (line) => this.answers.shift()?.(line));
    }
    get pid() {
        return this.child.pid;
    }
    send(line) {
        return new Promise((resolve, reject) => {
            this.answers.push((answer) => {
                const parsed = JSON.parse(answer);
                if (parsed.error)
                    reject(new Error(parsed.error));
                else
                    resolve(parsed);
            });
            this.child.stdin.write(`${line}\n`);
        });
    }
    connect = (port, path, count) => this.send(`connect ${port} ${path} ${count}`);
    reset = async () => void (await this.send('reset'));
    report = (expected) => this.send(`report ${expected}`);
    pause = async (index) => void (await this.send(`pause ${index}`));
    resume = async (index) => void (await this.send(`resume ${index}`));
    exclude = async (index) => void (await this.send(`exclude ${index}`));
    state = async () => (await this.send('state 0')).state;
    close = async () => {
        await this.send('close');
        await stopChild(this.child);
    };
}
/** The Node client (bench/load/ws-clients.ts) over IPC: the fallback without gcc. */
class NodeClients {
    child;
    kind = 'Node';
    constructor(child) {
        this.child = child;
    }
    get pid() {
        return this.child.pid;
    }
    connect = (port, path, count) => ask(this.child, { cmd: 'connect', port, path, count });
    reset = async () => void (await ask(this.child, { cmd: 'reset' }));
    report = (expected) => ask(this.child, { cmd: 'report', expected });
    pause = async (index) => void (await ask(this.child, { cmd: 'pause', index }));
    resume = async (index) => void (await ask(this.child, { cmd: 'resume', index }));
    exclude = async (index) => void (await ask(this.child, { cmd: 'exclude', index }));
    state = async () => (await ask(this.child, { cmd: 'state', index: 0 })).state;
    close = async () => {
        await ask(this.child, { cmd: 'close' }).catch(() => { });
        await stopChild(this.child);
    };
}
/** Starts a client process: the C one when it can be built, else the Node one. */
export async function startClients() {
    const native = nativeClientBinary();
    if (native)
        return new NativeClients(spawn(native, [], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const child = forkLoad('ws-clients.ts');
    await new Promise((resolve) => child.once('message', resolve));
    return new NodeClients(child);
}
