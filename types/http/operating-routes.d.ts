import type { Route } from './route.ts';
export declare const operatingRoutes: readonly Route[];
