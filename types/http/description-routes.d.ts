import type { Route } from './routes.ts';
export declare const descriptionRoutes: readonly Route[];
