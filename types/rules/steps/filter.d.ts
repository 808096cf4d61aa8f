import { type Value } from '../../core/value.ts';
import { type Scalar } from '../signal.ts';
type Condition = {
    eq: Scalar;
} | {
    ne: Scalar;
} | {
    gt: number;
} | {
    gte: number;
} | {
    lt: number;
} | {
    lte: number;
} | {
    matches: string;
} | {
    in: Scalar[];
};
/** Compares like with like: numbers numerically, booleans as booleans, text as its string form. */
export declare function same(value: Value | null, wanted: Scalar): boolean;
/** `{ filter: { eq | ne | gt | gte | lt | lte: x } }`, `{ filter: { matches: "regex" } }`, `{ filter: { in: [..] } }` */
export declare const filterStep: import("../signal.ts").PipeStep<Condition>;
export {};
