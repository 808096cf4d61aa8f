/** How the hub's log lines count what they report, in words. */
/** `1 rule`, `2 rules`. */
export declare const count: (n: number, word: string) => string;
