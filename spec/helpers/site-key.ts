import { fileURLToPath } from 'node:url';

/** The site key of the specs' hubs: a file of random bytes, for specs only. */
export const siteKeyFile = fileURLToPath(new URL('../fixtures/site.key', import.meta.url));

/** The `hub.key` setting that names it. */
export const siteKey = { file: siteKeyFile };
