/**
 * Where a Bitfocus Companion installation on this machine keeps the modules it installed
 * (R-ST7): each module a folder `<id>-<version>` with its `companion/manifest.json`, in the
 * `modules` folder of Companion's configuration folder. Companion's desktop app puts that
 * folder in the system's application data (`~/.config/companion` on Linux,
 * `~/Library/Application Support/companion` on macOS, `%APPDATA%\companion` on Windows);
 * headless Companion uses `~/companion` when it is there, else its Node configuration folder
 * (`companion-nodejs`); `COMPANION_CONFIG_BASEDIR` moves it, as it moves Companion's. The
 * flow's `companionModules` names another. Only what exists is listed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where to look, given the machine: its environment, platform and home folder. */
export interface Machine {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly home: string;
}

/** Companion's configuration folders on `machine`, most particular first, whether they exist or not. */
function configFolders({ env, platform, home }: Machine): string[] {
  const named = env['COMPANION_CONFIG_BASEDIR'];
  if (named) return [named];
  const headless = join(home, 'companion');
  if (platform === 'win32') {
    const appData = env['APPDATA'] ?? join(home, 'AppData', 'Roaming');
    return [headless, join(appData, 'companion'), join(appData, 'companion-nodejs', 'Config')];
  }
  if (platform === 'darwin')
    return [headless, join(home, 'Library', 'Application Support', 'companion'), join(home, 'Library', 'Preferences', 'companion-nodejs')];
  const config = env['XDG_CONFIG_HOME'] || join(home, '.config');
  return [headless, join(config, 'companion'), join(config, 'companion-nodejs')];
}

/** The modules folders of Companion installations found on `machine`, with the one `named` (the flow's `companionModules`) first. */
export function companionModuleFolders(machine: Machine, named?: string): string[] {
  const folders = [...(named ? [named] : []), ...configFolders(machine).map((folder) => join(folder, 'modules'))];
  return [...new Set(folders)].filter((folder) => existsSync(folder));
}
