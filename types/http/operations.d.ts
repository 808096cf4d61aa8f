import { type Operations } from './operation-shapes.ts';
/** Every HTTP operation, by route path and method. */
export declare const operations: Operations;
