/**
 * A network of the spec's own, made of Linux network namespaces (R-AV4): each member — a hub,
 * the witness, the broker — in a namespace with an address of its own on one switch (a
 * bridge), so that a link can be cut and mended while the processes run. Each hub also has a
 * link of its own to this machine, never cut: the device network, where the spec's device
 * and its HTTP client are.
 *
 * Cuts: `unplug` takes a member's cable out of the switch (it reaches no one on the switch);
 * `cut` drops everything between two members both ways (a blackhole route on each side, as a
 * firewall between them would). Needs root and iproute2 (CI runs as root); elsewhere
 * `canMakeNamespaces` is false and `whyNoNamespaces` says why.
 */
import { execFileSync } from 'node:child_process';
import type { ExecutionContext } from 'ava';

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** Why this machine cannot make namespaces, or undefined when it can (tried once, with a namespace made and removed). */
function whyNot(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  const probe = `pbprobe${process.pid}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return undefined;
  } catch (error) {
    return `ip netns add failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim() || String(error)}`;
  }
}

const reason = whyNot();
export const canMakeNamespaces = reason === undefined;
/** Appended to a spec's title: why it was skipped, when it was. */
export const whyNoNamespaces = reason === undefined ? '' : ` (skipped: no network namespaces here: ${reason})`;

export interface Network {
  /** A member's address on the switch. */
  address(member: string): string;
  /** A hub's address on its device link, and this machine's end of that link (where the device listens). */
  deviceLink(hub: string): { readonly hub: string; readonly here: string };
  /** What runs a command inside a member's namespace: put it before the command. */
  run(member: string): string[];
  /** Takes the member's cable out of the switch, or puts it back. */
  unplug(member: string): void;
  plugIn(member: string): void;
  /** Drops everything between two members, both ways; `mend` undoes it. */
  cut(one: string, other: string): void;
  mend(one: string, other: string): void;
}

/** How many networks this process made: each one's names are its own. */
let networksMade = 0;

/**
 * Makes the namespaces of `members` on a switch, with a device link for each of `hubs`, and
 * removes all of it when the spec ends. Addresses are 10.<n>.0.<k> on the switch and
 * 10.<n>.<k>.2 (the hub) / .1 (this machine) on device links, with <n> a second octet no route
 * of this machine uses.
 */
/** What the network needs of a spec: somewhere to put its removal (a bench passes its own). */
export type Teardowns = Pick<ExecutionContext, 'teardown'>;

export function makeNetwork(t: Teardowns, members: readonly string[], hubs: readonly string[]): Network {
  // A name of its own for each network of this process: the interfaces of one just removed may
  // linger a moment (a namespace's links go after `ip netns del` returns), and the specs of a
  // file run side by side. At most 15 characters with the suffixes below (IFNAMSIZ).
  const tag = `pbn${process.pid}x${++networksMade}`;
  removeLeftovers();
  const routes = ip('-4', 'route', 'show', 'table', 'all');
  // Looked for from an octet of this process's own, so that two spec files making their
  // networks at the same moment do not both take the first free one.
  const octet = [...Array(50).keys()].map((k) => 200 + ((k + process.pid) % 50)).find((n) => !routes.includes(`10.${n}.`));
  if (octet === undefined) throw new Error('no free 10.x.0.0/16 for the spec network');
  const index = (member: string) => {
    const at = members.indexOf(member);
    if (at < 0) throw new Error(`${member} is not a member of the spec network`);
    return at + 1;
  };
  const namespace = (member: string) => `${tag}-${index(member)}`;
  const address = (member: string) => `10.${octet}.0.${index(member)}`;
  const bridge = `${tag}sw`;
  const port = (member: string) => `${tag}p${index(member)}`;

  const made: string[] = [];
  t.teardown(() => {
    for (const name of made) {
      try {
        ip('netns', 'del', name);
      } catch {}
    }
    try {
      ip('link', 'del', bridge);
    } catch {}
  });
  ip('link', 'add', bridge, 'type', 'bridge');
  // This machine on the switch too, as an onlooker (the spec sees that the broker listens); no member routes through it.
  ip('addr', 'add', `10.${octet}.0.254/24`, 'dev', bridge);
  ip('link', 'set', bridge, 'up');
  for (const member of members) {
    const ns = namespace(member);
    ip('netns', 'add', ns);
    made.push(ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('link', 'add', port(member), 'type', 'veth', 'peer', 'name', 'switch', 'netns', ns);
    ip('link', 'set', port(member), 'master', bridge, 'up');
    ip('-n', ns, 'addr', 'add', `${address(member)}/24`, 'dev', 'switch');
    ip('-n', ns, 'link', 'set', 'switch', 'up');
  }
  for (const hub of hubs) {
    const ns = namespace(hub);
    const here = `${tag}d${index(hub)}`;
    ip('link', 'add', here, 'type', 'veth', 'peer', 'name', 'devices', 'netns', ns);
    ip('addr', 'add', `10.${octet}.${index(hub)}.1/24`, 'dev', here);
    ip('link', 'set', here, 'up');
    ip('-n', ns, 'addr', 'add', `10.${octet}.${index(hub)}.2/24`, 'dev', 'devices');
    ip('-n', ns, 'link', 'set', 'devices', 'up');
  }
  const blackhole = (verb: 'add' | 'del', from: string, to: string) =>
    ip('-n', namespace(from), 'route', verb, 'blackhole', `${address(to)}/32`);
  return {
    address,
    deviceLink: (hub) => ({ hub: `10.${octet}.${index(hub)}.2`, here: `10.${octet}.${index(hub)}.1` }),
    run: (member) => ['ip', 'netns', 'exec', namespace(member)],
    unplug: (member) => void ip('link', 'set', port(member), 'down'),
    plugIn: (member) => void ip('link', 'set', port(member), 'up'),
    cut: (one, other) => {
      blackhole('add', one, other);
      blackhole('add', other, one);
    },
    mend: (one, other) => {
      blackhole('del', one, other);
      blackhole('del', other, one);
    },
  };
}

/** Removes the namespaces and switches of earlier runs whose process is gone (a run killed before its teardown). */
function removeLeftovers(): void {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const gone = (name: string) => {
    const pid = Number(/^pbn(\d+)/.exec(name)?.[1]);
    return Number.isInteger(pid) && pid !== process.pid && !alive(pid);
  };
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (gone(name)) ip('netns', 'del', name);
  }
  for (const line of ip('-o', 'link', 'show', 'type', 'bridge').split('\n')) {
    const name = /^\d+: (pbn\d+x\d+sw)[:@]/.exec(line)?.[1];
    if (name && gone(name)) ip('link', 'del', name);
  }
}
