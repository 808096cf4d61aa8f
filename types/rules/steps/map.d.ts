import { type Scalar } from '../signal.ts';
/** `{ map: { "<from>": <to>, …, "*"?: <to> } }`: a table lookup on the string form. */
export declare const mapStep: import("../signal.ts").PipeStep<Record<string, Scalar | null>>;
