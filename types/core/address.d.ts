import { type Result } from './errors.ts';
/** 1–64 of a-z 0-9 -, starting with a letter or digit (R-P1). */
export declare const connectionIdPattern = "^[a-z0-9][a-z0-9-]{0,63}$";
/** One segment of a parameter id: 1–128 of A-Z a-z 0-9 _ - . (R-P1). */
export declare const segmentPattern = "^[A-Za-z0-9_.-]{1,128}$";
/** One or more segments joined by / (R-P1). */
export declare const parameterIdPattern = "^[A-Za-z0-9_.-]{1,128}(/[A-Za-z0-9_.-]{1,128})*$";
export interface Address {
    readonly connectionId: string;
    readonly parameterId: string;
}
/** True when `id` is a valid connection id. */
export declare function isConnectionId(id: string): boolean;
/** Checks a parameter id; `_`-prefixed ids pass only when `reserved` is allowed. */
export declare function checkParameterId(id: string, { reserved }?: {
    reserved?: boolean | undefined;
}): Result<string>;
/** Splits `<connection id>/<parameter id>` at the first `/` and checks both halves. */
export declare function parseAddress(address: string): Result<Address>;
