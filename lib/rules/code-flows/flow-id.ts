import { basename, extname } from 'node:path';

/** The id of a flow module: its file name, lower-cased, with other characters as `-`. */
export function flowIdOf(path: string): string {
  return basename(path, extname(path))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64);
}
