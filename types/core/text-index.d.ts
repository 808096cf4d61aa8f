/**
 * An index of a list of texts (a dummy's million parameter ids): which texts repeat an
 * earlier one, and where a text is.
 *
 * A Map or Set of a million strings takes most of a second to fill on a small machine.
 * Sorting a million numbers takes a tenth of that, so each text becomes a 32-bit hash
 * beside its position, packed into one 64-bit number (hash high, position low); after a
 * numeric sort, equal texts sit side by side among those of equal hash, and a text is
 * found by a binary search on its hash, then compared as a string. Exact whatever the hash
 * collisions. The texts are not copied: the list must not change while the index is used.
 */
export declare class TextIndex {
    private readonly texts;
    /** The sorted packed numbers, as 32-bit words: position at 2k, hash at 2k + 1. */
    private readonly words;
    constructor(texts: readonly string[]);
    /** The positions of the texts equal to one before them, in order. */
    repeats(): number[];
    /** The first position of `text`, or -1. */
    indexOf(text: string): number;
}
