/**
 * `patchbay witness`: the third voter of a redundancy group (R-AV), a small process that
 * holds no connections and only takes part in the vote, until SIGINT or SIGTERM.
 */
import { resolve } from 'node:path';
import { reasonOf } from './core/errors.ts';
import { createLogger, type LogFormat, type LogLevel } from './core/log.ts';
import { loadSiteKey } from './broker/site-key.ts';
import { Exit } from './commands.ts';
import { startWitness } from './site/vote/witness.ts';

/** The options of the command line a witness reads. */
export interface WitnessOptions {
  readonly group?: string | undefined;
  readonly members?: string | undefined;
  readonly listen?: string | undefined;
  readonly id?: string | undefined;
  readonly 'key-file'?: string | undefined;
  readonly 'key-env'?: string | undefined;
  readonly state?: string | undefined;
}

/** `patchbay witness`: runs until SIGINT or SIGTERM. */
export async function witness(
  values: WitnessOptions,
  { level, format }: { readonly level: LogLevel; readonly format: LogFormat },
  err: NodeJS.WritableStream,
  badUsage: (message: string) => number,
): Promise<number> {
  const { group, members, listen } = values;
  if (!group || !members || !listen) return badUsage('witness needs --group, --members and --listen');
  const address = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(listen);
  if (!address) return badUsage(`--listen ${listen}: expected HOST:PORT (an IPv6 address in brackets: [::1]:17070)`);
  const memberIds = members.split(',').filter(Boolean);
  const id = values.id ?? 'witness';
  if (memberIds.length !== 2 || memberIds.includes(id))
    return badUsage(`--members ${members}: the group's two hubs, by their ids, other than the witness's (${id})`);
  // A witness that forgets what it granted takes a played-back ask after a restart (R-AV3).
  if (values.state === 'none')
    return badUsage(
      'witness --state none: a witness must remember what it granted across restarts, or a played-back ask takes the lease; give it a folder',
    );
  const source = values['key-file'] ? { file: resolve(values['key-file']) } : { env: values['key-env'] ?? 'PATCHBAY_SITE_KEY' };
  const key = loadSiteKey(source);
  if (!key.ok) {
    err.write(`patchbay witness: ${key.error.message}\n`);
    return Exit.RuntimeFailure;
  }
  const log = createLogger({ level, format });
  const stateFolder = resolve(values.state ?? '.patchbay');
  let running: Awaited<ReturnType<typeof startWitness>>;
  try {
    running = await startWitness({
      id,
      group,
      members: memberIds,
      listen: { host: address[1] ?? address[2] ?? '', port: Number(address[3]) },
      siteKey: key.value,
      stateFolder,
      log,
    });
  } catch (error) {
    log.error(`the witness cannot start: ${reasonOf(error)}`);
    return Exit.RuntimeFailure;
  }
  await new Promise<void>((resolveStop) => {
    process.once('SIGINT', resolveStop);
    process.once('SIGTERM', resolveStop);
  });
  await running.stop();
  log.info('witness stopped');
  return Exit.Ok;
}
