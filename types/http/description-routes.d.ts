import type { Route } from './route.ts';
export declare const descriptionRoutes: readonly Route[];
