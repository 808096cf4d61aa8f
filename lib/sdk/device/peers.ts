/**
 * Which peers a listener lets in (issue 44): the `allow` setting every device-facing
 * listener takes — addresses and CIDR blocks, IPv4 and IPv6 (an IPv4 peer reached over an
 * IPv6 socket, `::ffff:10.0.0.5`, is its IPv4 address). Empty lets every peer in, as before;
 * the listener says which at start. Checked with Node's `BlockList`, as the kernel would.
 */
import { BlockList, isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { Issue } from '../../core/issue.ts';
import { withDefault } from '../settings.ts';

/** The `allow` setting of a listener. */
export const allowSetting = withDefault(
  Type.Array(Type.String({ description: 'An address (10.0.0.5, ::1) or a block (10.0.0.0/24, fd00::/8).' }), {
    description: 'The peers it lets in; another is refused at once and counted. None listed: every peer.',
  }),
  [],
);

export class Peers {
  private constructor(
    private readonly list: BlockList | undefined,
    /** The entries as written, for the log. */
    readonly written: readonly string[],
  ) {}

  /** Every peer: a listener without `allow`. */
  static readonly anyone = new Peers(undefined, []);

  /** The peers of an `allow` list, or the mistakes in it (paths `[path…, index]`). */
  static compile(entries: readonly string[], path: readonly (string | number)[] = ['allow']): Peers | Issue[] {
    if (entries.length === 0) return Peers.anyone;
    const list = new BlockList();
    const issues: Issue[] = [];
    entries.forEach((entry, index) => {
      const [address = '', bits, ...rest] = entry.split('/');
      const family = isIP(address);
      const most = family === 6 ? 128 : 32;
      if (family === 0 || rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits)) || Number(bits ?? 0) > most) {
        issues.push({
          path: [...path, index],
          message: `"${entry}" is no address or block: expected 10.0.0.5, 10.0.0.0/24, ::1 or fd00::/8`,
        });
        return;
      }
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(bits), type);
    });
    return issues.length > 0 ? issues : new Peers(list, entries);
  }

  /** Whether every peer is let in. */
  get open(): boolean {
    return this.list === undefined;
  }

  /** Whether a peer of this address is let in (an address Node gives: `10.0.0.5`, `::ffff:10.0.0.5`, `::1`). */
  allows(address: string | undefined): boolean {
    if (this.list === undefined) return true;
    if (address === undefined) return false;
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** For the start log line: `every peer`, or the list. */
  describe(): string {
    return this.open ? 'every peer' : `peers ${this.written.join(', ')}`;
  }
}

/**
 * The warning `validate` gives (and the hub logs at start) for a listener whose peers may
 * change parameters, on every interface (`bindIp` "") with no `allow`: the rest-api's warning
 * for an open write API, for a device protocol, which has no credentials. `what` says what
 * such a peer may do: "set the parameters its receive lines make".
 */
export function openListenerWarnings(settings: { readonly bindIp: string; readonly allow: readonly string[] }, what: string): Issue[] {
  if (settings.bindIp !== '' || settings.allow.length > 0) return [];
  return [
    {
      path: ['bindIp'],
      message: `peers on every machine that reaches this one may ${what}: set bindIp (such as 127.0.0.1) or allow`,
    },
  ];
}
