/**
 * Lets the packages of this checkout (`packages/*`) import `patchbay-hub/connection` as they
 * would an installed patchbay's, from the sources: for `npm run docs` and the specs, which
 * load them where no patchbay is installed. A studio resolves it through node_modules.
 *
 *   node --import tsx --import ./tools/checkout-face.mjs …
 */
import { register } from 'node:module';

register('./checkout-face-hooks.mjs', import.meta.url);
