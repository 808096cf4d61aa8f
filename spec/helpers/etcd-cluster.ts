import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually.ts';
import { freePort } from './ports.ts';

const binary = '/usr/bin/etcd';
/** True where Debian's etcd is installed (CI installs `etcd-server`). */
export const canRunEtcd = existsSync(binary);
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoEtcd = canRunEtcd ? '' : ' (skipped: /usr/bin/etcd is missing; apt-get install etcd-server)';

export interface EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly pid: number | undefined;
  kill(signal?: NodeJS.Signals): void;
  /** Starts it again after a kill, with its data: it rejoins the cluster. */
  restart(): void;
}

/** A three-member (or `size`) etcd cluster of the spec's own on loopback, each in a temporary folder. */
export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  readonly endpoints: readonly string[];
  /** Stops every member by its PID (SIGKILL) and removes the folders. Idempotent. */
  stop(): Promise<void>;
}

/** Where members run: by default on loopback, each on free ports; in a spec network, each at its member's address and namespace. */
export interface EtcdPlacement {
  /** Each member's address (ports 2379 and 2380 there). */
  readonly hosts: readonly string[];
  /** What runs a command in each member's namespace (`Network.run`). */
  readonly command: (member: number) => readonly string[];
}

/**
 * Starts the cluster; on loopback, a member that finds its port taken (another spec file's
 * process took it between `freePort` and etcd's bind, which a loaded suite does) makes the
 * whole cluster start again on fresh ports, at most three times. Any other early exit fails at
 * once, with what the member printed.
 */
export async function startEtcdCluster(size = 3, placement?: EtcdPlacement): Promise<EtcdCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(size, placement);
    } catch (error) {
      if (placement || attempt === 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(size: number, placement: EtcdPlacement | undefined): Promise<EtcdCluster> {
  const folder = mkdtempSync(join(tmpdir(), 'patchbay-etcd-'));
  const ports = [];
  for (let i = 0; i < size; i++)
    ports.push(placement ? { client: 2379, peer: 2380 } : { client: await freePort(), peer: await freePort() });
  const host = (i: number) => placement?.hosts[i] ?? '127.0.0.1';
  const names = ports.map((_, i) => `m${i}`);
  const token = `spec-${ports[0]!.client}`;
  const initial = ports.map(({ peer }, i) => `${names[i]}=http://${host(i)}:${peer}`).join(',');
  const processes: ChildProcess[] = [];
  /** What each member printed (errors only), the last 4 KiB: said when the start fails. */
  const printed = new Map<string, string>();
  let exitedEarly: string | undefined;
  let starting = true;
  const members = ports.map(({ client, peer }, i): EtcdMember => {
    const name = names[i]!;
    const clientUrl = `http://${host(i)}:${client}`;
    const prefix = placement?.command(i) ?? [];
    // Started again after a kill, it finds its data folder and rejoins (the initial-cluster flags are then ignored).
    const start = () => {
      const child = spawn(
        prefix[0] ?? binary,
        [
          ...(prefix.length > 0 ? [...prefix.slice(1), binary] : []),
          ...['--name', name, '--data-dir', join(folder, name)],
          ...['--listen-client-urls', clientUrl, '--advertise-client-urls', clientUrl],
          ...['--listen-peer-urls', `http://${host(i)}:${peer}`, '--initial-advertise-peer-urls', `http://${host(i)}:${peer}`],
          ...['--initial-cluster', initial, '--initial-cluster-state', 'new', '--initial-cluster-token', token],
          ...['--log-level', 'error', '--logger', 'zap'],
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child.stderr?.setEncoding('utf8').on('data', (text: string) => printed.set(name, ((printed.get(name) ?? '') + text).slice(-4096)));
      // 'close', not 'exit': by then all it printed has been read.
      child.once('close', (code, signal) => {
        if (starting)
          exitedEarly ??= `${name} exited (${signal ?? `code ${code}`}) before the cluster was healthy: ${printed.get(name)?.trim() || 'it printed nothing'}`;
      });
      processes.push(child);
      return child;
    };
    let child = start();
    return {
      name,
      clientUrl,
      get pid() {
        return child.pid;
      },
      kill: (signal = 'SIGKILL') => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      },
      restart: () => {
        if (child.exitCode !== null || child.signalCode !== null) child = start();
      },
    };
  });
  const endpoints = members.map((member) => member.clientUrl);
  let stopped = false;
  const cluster: EtcdCluster = {
    members,
    endpoints,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(
        processes.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGCONT');
              child.kill('SIGKILL');
            }),
        ),
      );
      rmSync(folder, { recursive: true, force: true });
    },
  };
  let lastAnswer = 'no member was asked';
  try {
    // Healthy once a quorum elected a leader: every member answers a linearizable read.
    await eventually(
      async () => {
        if (exitedEarly) return true;
        for (const url of endpoints) {
          const response = await fetch(`${url}/v3/kv/range`, {
            method: 'POST',
            body: JSON.stringify({ key: 'eA==' }),
            signal: AbortSignal.timeout(1000),
          }).catch((error: Error) => {
            lastAnswer = `${url} did not answer: ${error.cause ?? error.message}`;
          });
          if (!response?.ok) {
            if (response) lastAnswer = `${url} answered ${response.status}: ${await response.text()}`;
            return false;
          }
        }
        return true;
      },
      () =>
        `a ${size}-member etcd cluster to elect its leader (last: ${lastAnswer}); members printed: ${[...printed].map(([name, text]) => `${name}: ${text.trim()}`).join(' | ') || 'nothing'}`,
      60_000,
    );
    if (exitedEarly) throw /address already in use/.test(exitedEarly) ? new PortTaken(exitedEarly) : new Error(exitedEarly);
    starting = false;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
