/** The resolve hook of checkout-face.mjs: `patchbay-hub/connection` is this checkout's `lib/sdk/index.ts`. */
const face = new URL('../lib/sdk/index.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'patchbay-hub/connection') return { url: face, format: 'module', shortCircuit: true };
  return next(specifier, context);
}
