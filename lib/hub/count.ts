/** How the hub's log lines count what they report, in words. */

/** `1 rule`, `2 rules`. */
export const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
