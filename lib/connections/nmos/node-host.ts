/**
 * Where the node says it is (R-NM1): the host registries and clients are told, and the
 * network interfaces its node resource lists (IS-04 wants each with its MAC address as
 * `port_id`). Pure, over what `os.networkInterfaces()` gives, so it is specified without a
 * machine's interfaces.
 */
import type { NetworkInterfaceInfo } from 'node:os';

export interface NodeHost {
  readonly host: string;
  readonly interfaces: readonly { readonly name: string; readonly mac: string }[];
}

/**
 * `host` when written; else the first IPv4 address of the interface `bindIp` is on, or of the
 * first interface that is not loopback; else 127.0.0.1. The interfaces listed are those of
 * the host's address when it is one of the machine's, else every interface not loopback.
 */
export function nodeHostOf(
  written: string,
  bindIp: string,
  interfaces: Readonly<Record<string, readonly NetworkInterfaceInfo[] | undefined>>,
): NodeHost {
  const named = Object.entries(interfaces).flatMap(([name, infos]) => (infos ?? []).map((info) => ({ name, ...info })));
  const outward = named.filter((info) => !info.internal);
  const bound = bindIp === '' || bindIp === '0.0.0.0' || bindIp === '::' ? undefined : named.find((info) => info.address === bindIp);
  const chosen =
    written !== ''
      ? written
      : bound?.family === 'IPv4'
        ? bound.address
        : bound
          ? (named.find((info) => info.name === bound.name && info.family === 'IPv4')?.address ?? bound.address)
          : (outward.find((info) => info.family === 'IPv4')?.address ?? '127.0.0.1');
  const holder = named.find((info) => info.address === chosen);
  const listed = holder ? named.filter((info) => info.name === holder.name) : outward;
  const seen = new Map<string, string>();
  for (const { name, mac } of listed) {
    if (!seen.has(name) && /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(mac)) seen.set(name, mac.toLowerCase().replaceAll(':', '-'));
  }
  return { host: chosen, interfaces: [...seen].map(([name, mac]) => ({ name, mac })) };
}
