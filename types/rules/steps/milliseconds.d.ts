/** The argument of the timed steps. */
export declare const milliseconds: import("@sinclair/typebox").TInteger;
