/**
 * Loaded into every spec process (ava's `nodeArguments`): the process gets a temporary
 * folder of its own as TMPDIR, which `os.tmpdir()` and every process it starts then use,
 * and the folder goes when the process exits — so `npm test` leaves no temporary folders
 * behind, whatever a spec forgot to remove.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'patchbay-spec-'));
process.env['TMPDIR'] = root;
process.on('exit', () => {
  try {
    rmSync(root, { recursive: true, force: true });
  } catch {
    // Gone already, or held open by a process still running: nothing more to do at exit.
  }
});
