/**
 * What the commands of `patchbay` share: their exit statuses (R-F2), and where a flow keeps
 * its state.
 */
import { dirname, join, resolve } from 'node:path';

/** Exit statuses of R-F2. */
export const Exit = { Ok: 0, RuntimeFailure: 1, Usage: 2 } as const;

/**
 * The state folder of a flow (R-S1): `--state`, or `.patchbay` beside the flow file;
 * undefined for `none`. A flow file inside `node_modules` (the packaged demo, `npx patchbay
 * run`) keeps its state in the working folder instead: a package folder is replaced by the
 * next install and may not be writable.
 */
export function stateFolderOf(flowFile: string, option: string | undefined): string | undefined {
  if (option === 'none') return undefined;
  if (option !== undefined) return resolve(option);
  const baseDir = dirname(resolve(flowFile));
  const inPackage = baseDir.split(/[\\/]/).includes('node_modules');
  return join(inPackage ? process.cwd() : baseDir, '.patchbay');
}
