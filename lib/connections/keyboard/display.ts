import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { HubError } from '../../sdk/index.ts';

const require = createRequire(import.meta.url);
const probes = new Map<string, Promise<void>>();

/**
 * Checks, in a child process, that the X display can be opened for global hotkeys and
 * synthetic keys. The native key libraries abort or crash the whole process when it
 * cannot, so they are only ever loaded in this process after a probe has passed.
 * Rejects with a PB_NO_DISPLAY HubError giving the reason (no DISPLAY, display
 * unreachable, no permission).
 */
export function probeDisplay(): Promise<void> {
  const display = process.env['DISPLAY'] ?? '';
  if (!display) {
    return Promise.reject(
      new HubError(
        'PB_NO_DISPLAY',
        'no X display: DISPLAY is not set (global keys need X11; on a headless machine run under Xvfb +extension RECORD)',
      ),
    );
  }
  let probe = probes.get(display);
  if (!probe) {
    probe = runProbe(display);
    probes.set(display, probe);
  }
  return probe;
}

function runProbe(display: string): Promise<void> {
  const code = `
    const { uIOhook } = require(${JSON.stringify(require.resolve('uiohook-napi'))});
    uIOhook.start();
    uIOhook.stop();
    require(${JSON.stringify(require.resolve('@nut-tree-fork/nut-js'))}).screen.width().then(
      () => process.exit(0),
      (error) => { console.error(error.message); process.exit(3); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 15_000 });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(new HubError('PB_NO_DISPLAY', `cannot check display ${display}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      const said = stderr.trim().split('\n').filter(Boolean).at(0) ?? (signal ? `ended by ${signal}` : `exit ${code}`);
      reject(new HubError('PB_NO_DISPLAY', `cannot use X display ${display}: ${said}`));
    });
  });
}
