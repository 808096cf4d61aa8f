import { type Operations } from './operation-shapes.ts';
export declare const flowOperations: Operations;
