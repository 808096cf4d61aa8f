/**
 * `patchbay state`: a flow's kept values and records listed, reset, exported and imported,
 * and its sign-in key rotated (R-S6, R-H11), with the hub stopped or running beside it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type Flow, loadFlowFile } from './config/flow-file.ts';
import { fail, ok, reasonOf, type Result } from './core/errors.ts';
import type { ValueType } from './core/value.ts';
import { Exit, stateFolderOf } from './commands.ts';
import { rotateSignInKey } from './state/sign-in-key.ts';
import { StateStore } from './state/store.ts';
import { exportState, importState } from './state/transfer.ts';

/** `patchbay state <flow file> list | reset <connection> | export | import <file> | rotate-sign-in-key` (R-S6, R-H11). */
export async function stateCommand(
  args: readonly string[],
  option: string | undefined,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  badUsage: (message: string) => number,
): Promise<number> {
  const [file, action, argument, ...extra] = args;
  const needs = { list: 0, export: 0, reset: 1, import: 1, 'rotate-sign-in-key': 0 } as const;
  if (file === undefined || action === undefined)
    return badUsage('state takes a flow file and one of list, reset, export, import, rotate-sign-in-key');
  if (!(action in needs)) return badUsage(`unknown state action "${action}"; expected list, reset, export, import or rotate-sign-in-key`);
  const wanted = needs[action as keyof typeof needs];
  if (extra.length > 0 || (wanted === 1) !== (argument !== undefined))
    return badUsage(`state ${action} takes ${wanted === 1 ? 'one argument' : 'no argument'}`);
  // Read as `run` reads it: what keeps one connection from starting (an output folder not
  // there on this machine) does not keep its stored values from being listed or moved.
  const loaded = await loadFlowFile(file, process.env, { start: true });
  if (!loaded.ok) {
    err.write(`${loaded.error.message}\n`);
    return Exit.Usage;
  }
  const folder = stateFolderOf(file, option);
  if (folder === undefined) return badUsage('state needs a state folder, not --state none');
  if (action === 'rotate-sign-in-key') {
    const rotated = rotateSignInKey(folder);
    if (!rotated.ok) {
      err.write(`patchbay: ${rotated.error.message}\n`);
      return Exit.RuntimeFailure;
    }
    err.write(`a new sign-in key in ${rotated.value}: every browser signed in by token is signed out and signs in again with its token\n`);
    return Exit.Ok;
  }
  const connections = new Map(loaded.flow.connections.map((c) => [c.id, c]));
  const isConnection = (id: string) => connections.has(id);
  if (action === 'reset' && !isConnection(argument as string)) {
    // A typo in the connection id: one line that says so, not the usage.
    err.write(
      `patchbay: the flow file has no connection "${argument}" (its connections: ${loaded.flow.connections.map((c) => c.id).join(', ')})\n`,
    );
    return Exit.Usage;
  }
  if (action !== 'import' && !existsSync(folder)) {
    err.write(`patchbay: no state folder at ${folder} (the hub creates it when it first runs)\n`);
    return Exit.RuntimeFailure;
  }
  const opened = StateStore.open(folder);
  if (!opened.ok) {
    err.write(`${opened.error.message}\n`);
    return Exit.RuntimeFailure;
  }
  const store = opened.value;
  try {
    switch (action) {
      case 'list':
        for (const [address, value] of store.values())
          out.write(`${address}\t${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
        return Exit.Ok;
      case 'export':
        out.write(`${JSON.stringify(exportState(store), null, 2)}\n`);
        return Exit.Ok;
      case 'reset': {
        const removed = await store.reset(argument as string);
        err.write(`${argument}: ${removed} value${removed === 1 ? '' : 's'} forgotten; it starts from its defaults next time\n`);
        return Exit.Ok;
      }
      default: {
        let document: unknown;
        try {
          document = JSON.parse(await readFile(argument as string, 'utf8'));
        } catch (error) {
          err.write(`patchbay: cannot read ${argument}: ${reasonOf(error)}\n`);
          return Exit.Usage;
        }
        const imported = await importState(
          store,
          document,
          isConnection,
          (connectionId, parameterId) => keptParameterOf(connections.get(connectionId) as Flow['connections'][number], parameterId),
          (connectionId) => keepsRecords(connectionId, connections.get(connectionId)),
        );
        if (!imported.ok) {
          err.write(`patchbay: ${argument}: ${imported.error.message}\n`);
          return imported.error.code === 'PB_BAD_REQUEST' ? Exit.Usage : Exit.RuntimeFailure;
        }
        err.write(`${imported.value} value${imported.value === 1 ? '' : 's'} imported into ${folder}\n`);
        return Exit.Ok;
      }
    }
  } finally {
    await store.close();
  }
}

/** Whether a connection keeps records (a scenes connection's stored scenes), or why not: an import stores records only for those. */
function keepsRecords(id: string, connection: Flow['connections'][number] | undefined): Result<true> {
  if (!connection) return fail('PB_UNKNOWN_CONNECTION', `the flow file has no connection "${id}"`);
  if (!connection.common.persist) return fail('PB_UNKNOWN_PARAMETER', `connection "${connection.id}" keeps nothing (persist: false)`);
  return ok(true);
}

/** The type of the parameter `parameterId` of a connection when the hub keeps its value (R-S2), or why it does not. */
function keptParameterOf(connection: Flow['connections'][number], parameterId: string): Result<ValueType> {
  const { id, plan, common } = connection;
  if (!plan.declared) return fail('PB_UNKNOWN_PARAMETER', `a ${plan.type} connection keeps no parameter values`);
  if (!common.persist) return fail('PB_UNKNOWN_PARAMETER', `connection "${id}" keeps no values (persist: false)`);
  const parameter = plan.declared(parameterId);
  if (!parameter) return fail('PB_UNKNOWN_PARAMETER', `connection "${id}" has no parameter "${parameterId}"`);
  if (!parameter.persist) return fail('PB_UNKNOWN_PARAMETER', `connection "${id}" does not keep "${parameterId}"`);
  return ok(parameter.type);
}
