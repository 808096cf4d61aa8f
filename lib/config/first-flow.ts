/**
 * The first minute (R-ST1): `npx patchbay` in a folder without a flow file makes
 * `studio.json5` there — a rest-api on 127.0.0.1 with an admin token, and nothing else — so
 * that the console, where devices are added, opens at once. The token is written as its
 * sha256 (the file may go into git) and given to the caller once, to show.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The flow file `patchbay` runs when it is given none: this one, in the folder it runs in. */
export const FIRST_FLOW_FILE = 'studio.json5';
/** The port of the first flow's rest-api, the demo's; `PORT` in the environment moves it, as the file says. */
export const FIRST_PORT = 17011;

export interface FirstFlow {
  readonly path: string;
  /** Set when the file was made now: the admin token, shown once, and where the console is. */
  readonly made?: { readonly token: string; readonly console: string };
}

/**
 * `studio.json5` in `folder`: as it is when it exists, else made now. Made with the `wx`
 * flag: a file that appeared meanwhile (a second `npx patchbay`) is never overwritten.
 */
export async function firstFlow(folder: string, env: NodeJS.ProcessEnv = process.env, today = new Date()): Promise<FirstFlow> {
  const path = join(folder, FIRST_FLOW_FILE);
  const token = randomBytes(24).toString('base64url');
  try {
    await writeFile(path, firstFlowText(createHash('sha256').update(token).digest('hex'), today), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { path };
    throw error;
  }
  const port = /^\d+$/.test(env['PORT'] ?? '') ? env['PORT'] : FIRST_PORT;
  return { path, made: { token, console: `http://127.0.0.1:${port}/console/?access_token=${token}` } };
}

/** The text of a first flow file: what a person reads first, so it says what each part is for. */
export function firstFlowText(tokenSha256: string, today: Date): string {
  return `// This studio's flow file: its connections (the devices, surfaces and services it talks
// to), the rules that wire them, and its code flows. Made by \`npx patchbay\` on ${today.toISOString().slice(0, 10)};
// add devices in the console (http://127.0.0.1:${FIRST_PORT}/console/, or the PORT it was started
// with) or in any editor, and keep it in git (\`git init && git add ${FIRST_FLOW_FILE}\`): the
// admin token is here only as its sha256.
{
  // Admin logins may install device packages and Companion modules from the console's
  // catalogue, and name files and devices of this machine, while this hub serves this machine
  // alone (bindIp 127.0.0.1 below): set bindIp to '' and this no longer holds. false forbids it.
  machineEdits: true,
  connections: {
    // HTTP, WebSocket and the console, for this machine alone. To reach it from others, set
    // bindIp to '' (every interface) and give each person or panel a token of its own below.
    api: {
      type: 'rest-api',
      port: '\${PORT:-${FIRST_PORT}}',
      bindIp: '127.0.0.1',
      tokens: [
        // The token printed when this file was made: it reads and writes everything, follows
        // the log and edits this file. Lost? Put another here as sha256:<hex of its SHA-256>
        // (\`printf %s NEWTOKEN | sha256sum\`), and restart.
        { name: 'admin', token: 'sha256:${tokenSha256}', read: ['#'], write: ['#'], metrics: true, admin: true },
      ],
    },
  },
}
`;
}
