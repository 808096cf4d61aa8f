/**
 * What a package's code sees of the hub's environment, in the thread that reads its types and
 * in the process that runs its connections: the variables a program needs to run and to find
 * its locale and temporary folder, and nothing else. The hub's own variables (tokens and
 * passwords a flow file fills in with `${NAME}`, NODE_OPTIONS) stay in the hub: a package gets
 * what it needs through its connection's settings.
 */
const passed = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'NODE_ENV',
  'SYSTEMROOT',
  'SystemRoot',
  'WINDIR',
  'PATHEXT',
  'COMSPEC',
];

/** The environment a package's code runs with, from the hub's. */
export function packageEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (passed.includes(name) || name.startsWith('LC_'))) out[name] = value;
  }
  return out;
}
