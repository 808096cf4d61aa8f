import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually, startBound } from './eventually.ts';
import { freePort } from './ports.ts';

const binary = '/usr/sbin/mosquitto';
const passwordTool = '/usr/bin/mosquitto_passwd';
/** A certificate authority, a broker certificate for 127.0.0.1 signed by it, and another CA: test-only, valid for a century. */
export const tlsFixtures = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
/** True where Debian's Mosquitto is installed (CI installs it). */
export const canRunBroker = existsSync(binary);
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoBroker = canRunBroker ? '' : ' (skipped: mosquitto is missing; apt-get install mosquitto)';

/** A Mosquitto of the spec's own, on a free port of 127.0.0.1 (or where `host` and `port` say). */
export interface Broker {
  readonly port: number;
  readonly url: string;
  /** Stops it (SIGKILL: as a broker that crashes or loses power; SIGTERM: as its service manager stops it, wills sent); resolves once it is gone. */
  kill(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Starts it again on the same port, with its retained messages gone (no persistence). */
  restart(): Promise<void>;
  /** SIGSTOP: it holds its connections and answers nothing (a hung broker); `resume` sends SIGCONT. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/**
 * Starts Mosquitto with a config written here: no persistence, anonymous clients, Nagle off,
 * and queues bounded at `queued` messages per client (its default of 1,000 drops most of a
 * late joiner's retained values when a hub has more parameters).
 */
export async function startBroker({
  queued = 20_000,
  inflight = 1000,
  tls = false,
  acl,
  log,
  host = '127.0.0.1',
  port: asked,
  command = [],
}: {
  queued?: number;
  inflight?: number;
  tls?: boolean;
  /** Users only (no anonymous clients), each with its password, and the ACL file that limits them. */
  acl?: { readonly file: string; readonly users: Readonly<Record<string, string>> };
  /** A file for the broker's log (connections, and clients closed for a duplicate id); none by default. */
  log?: string;
  /** The address it listens on: one of a network namespace's, with `command`. */
  host?: string;
  port?: number;
  /** What runs it, before the binary: `ip netns exec <namespace>` for a broker on an address of its own. */
  command?: readonly string[];
} = {}): Promise<Broker> {
  const port = asked ?? (await freePort());
  const folder = mkdtempSync(join(tmpdir(), 'patchbay-broker-'));
  const config = join(folder, 'mosquitto.conf');
  // With `tls`, the listener speaks TLS only, with a certificate for 127.0.0.1 signed by spec/fixtures/tls/ca.pem.
  const certificates = tls
    ? ['cafile', 'certfile', 'keyfile'].map((key, i) => `${key} ${join(tlsFixtures, ['ca.pem', 'broker.pem', 'broker.key'][i]!)}`)
    : [];
  const access: string[] = [];
  if (acl) {
    const passwords = join(folder, 'passwords');
    writeFileSync(passwords, '');
    for (const [user, password] of Object.entries(acl.users)) execFileSync(passwordTool, ['-b', passwords, user, password]);
    access.push(`password_file ${passwords}`, `acl_file ${acl.file}`);
  }
  writeFileSync(
    config,
    // As the user running the specs: started as root, Mosquitto would otherwise become `mosquitto`, which may not read the certificates.
    [
      `listener ${port} ${host}`,
      ...certificates,
      `user ${userInfo().username}`,
      `allow_anonymous ${acl ? 'false' : 'true'}`,
      ...access,
      'persistence false',
      'set_tcp_nodelay true',
      `max_queued_messages ${queued}`,
      `max_inflight_messages ${inflight}`,
      ...(log ? [`log_dest file ${log}`, 'log_type all'] : ['log_dest none']),
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  const launch = async () => {
    const [file = binary, ...rest] = [...command, binary];
    const started = spawn(file, [...rest, '-c', config], { stdio: 'ignore' });
    child = started;
    await eventually(() => started.exitCode !== null || canConnect(port, host), 'mosquitto to listen', startBound);
    if (started.exitCode !== null) throw new Error(`mosquitto exited with ${started.exitCode}`);
  };
  const kill = async (signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await gone;
  };
  await launch();
  return {
    port,
    url: `${tls ? 'mqtts' : 'mqtt'}://${host}:${port}`,
    kill,
    restart: launch,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    stop: async () => {
      await kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** True when something listens on the port (checked with a real connection). */
async function canConnect(port: number, host: string): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
