import { readFile, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import mime from 'mime-types';
import { HubError } from '../core/errors.ts';

export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * Files below a document root (R-H4). Whatever the URL says — `..`, encoded slashes or
 * dots, backslashes, NUL bytes, symlinks pointing out — nothing outside the root is ever
 * read: the real path of every file is checked against the real path of the root.
 */
export class StaticFiles {
  private constructor(private readonly realRoot: string) {}

  /** Opens a root; throws a PB_DOCUMENT_ROOT HubError when it is missing or not a folder. */
  static async open(root: string): Promise<StaticFiles> {
    const real = await realpath(root).catch(() => {
      throw new HubError('PB_DOCUMENT_ROOT', `documentRoot ${root} does not exist`);
    });
    if (!(await stat(real)).isDirectory()) throw new HubError('PB_DOCUMENT_ROOT', `documentRoot ${root} is not a folder`);
    return new StaticFiles(real);
  }

  /** The file for a URL path (undecoded, as received), or undefined for "404". */
  async find(urlPath: string): Promise<StaticFile | undefined> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((segment) => segment === '..')) return undefined;
    let path = await this.inside(join(this.realRoot, decoded));
    if (!path) return undefined;
    const info = await stat(path);
    if (info.isDirectory()) {
      path = await this.inside(join(path, 'index.html'));
      if (!path || !(await stat(path)).isFile()) return undefined;
    } else if (!info.isFile()) {
      return undefined;
    }
    const body = await readFile(path);
    return { body, contentType: mime.contentType(mime.lookup(path) || 'application/octet-stream') || 'application/octet-stream' };
  }

  /** The real path of `path` when it exists and lies within the root. */
  private async inside(path: string): Promise<string | undefined> {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) return undefined;
    return real === this.realRoot || real.startsWith(this.realRoot + sep) ? real : undefined;
  }
}
