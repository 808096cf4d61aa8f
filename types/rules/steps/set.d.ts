import { type Scalar } from '../signal.ts';
/** `{ set: <value> }`: sends this constant instead (`null` fires a trigger). */
export declare const setStep: import("../signal.ts").PipeStep<Scalar | null>;
