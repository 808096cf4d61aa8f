import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** True when Xvfb and xdotool are installed (CI installs both). */
export const canRunXvfb = ['/usr/bin/Xvfb', '/usr/bin/xdotool'].every((bin) => existsSync(bin));
export const whyNoXvfb = canRunXvfb ? '' : ' (skipped: Xvfb or xdotool is missing; apt-get install xvfb xdotool)';

/**
 * Starts a private X server with the RECORD extension (which global hooks need) and
 * points DISPLAY at it. The server outlives this process by a moment and then stops: the
 * native key libraries keep their X connection open until exit, and end the process
 * abruptly if the server goes first.
 */
export async function startXvfb(): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const number = 100 + Math.floor(Math.random() * 400);
    if (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) continue;
    const watcher = [
      `Xvfb :${number} +extension RECORD -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 & x=$!`,
      `while kill -0 ${process.pid} 2>/dev/null && kill -0 $x 2>/dev/null; do sleep 0.3; done`,
      'kill $x 2>/dev/null',
    ].join('; ');
    spawn('sh', ['-c', watcher], { stdio: 'ignore', detached: true }).unref();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !existsSync(`/tmp/.X11-unix/X${number}`)) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!existsSync(`/tmp/.X11-unix/X${number}`)) continue;
    const display = `:${number}`;
    // The socket is there before the server serves (its keyboard is made after): the native
    // key libraries read the keyboard as they connect, and one that found none crashed its
    // process later on a loaded machine. A request answered says the server is ready.
    if (!(await answers(display))) continue;
    process.env['DISPLAY'] = display;
    return display;
  }
  throw new Error('could not start Xvfb');
}

/** Whether the X server of `display` answers a request (and has its keyboard), within 10 s. */
async function answers(display: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      execFileSync('xdotool', ['getdisplaygeometry'], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore', timeout: 5000 });
      execFileSync('xdotool', ['key', '--clearmodifiers', 'shift'], {
        env: { ...process.env, DISPLAY: display },
        stdio: 'ignore',
        timeout: 5000,
      });
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return false;
}

/** Presses keys on `display` as a person would, e.g. `ctrl+F1`. */
export function xdotoolKey(display: string, keys: string): void {
  execFileSync('xdotool', ['key', keys], { env: { ...process.env, DISPLAY: display } });
}
