import { open, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import mime from 'mime-types';
import { HubError } from '../core/errors.ts';

export interface StaticFile {
  readonly path: string;
  readonly size: number;
  readonly contentType: string;
}

/** Chunks a file is read in: what one client may make the hub hold of it at a time. */
export const FILE_CHUNK = 64 * 1024;

/**
 * A file's contents chunk by chunk, read as the client takes them (lib/http/stream.ts), so
 * that 40 clients that never read a 20 MiB file cost 40 chunks, not 40 copies of it.
 */
export async function fileChunks(path: string): Promise<{ next: () => Promise<Buffer | undefined>; close: () => void }> {
  const handle = await open(path, 'r');
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void handle.close();
  };
  const next = async () => {
    if (closed) return undefined;
    const buffer = Buffer.allocUnsafe(FILE_CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, FILE_CHUNK, null);
    return bytesRead > 0 ? buffer.subarray(0, bytesRead) : undefined;
  };
  return { next, close };
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
    const size = (await stat(path)).size;
    return { path, size, contentType: mime.contentType(mime.lookup(path) || 'application/octet-stream') || 'application/octet-stream' };
  }

  /** The real path of `path` when it exists and lies within the root. */
  private async inside(path: string): Promise<string | undefined> {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) return undefined;
    return real === this.realRoot || real.startsWith(this.realRoot + sep) ? real : undefined;
  }
}
