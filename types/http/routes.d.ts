import type { Handler, Route } from './route.ts';
/** The built-in paths (R-H4: they win over files of the same name). */
export declare const routes: readonly Route[];
/** The `Allow` value of a built-in path. */
export declare const allowedMethods: (route: Route) => string;
/** Any other method on a built-in path: 405 with `Allow`. */
export declare const methodNotAllowed: (route: Route) => Handler;
/** GET on any other path: 426 for `/ws` without an upgrade, else a hosted file or 404 (R-H4). */
export declare const getOther: Handler;
/** Any other method on any other path. */
export declare const notFound: Handler;
