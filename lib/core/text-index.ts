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
export class TextIndex {
  /** The sorted packed numbers, as 32-bit words: position at 2k, hash at 2k + 1. */
  private readonly words: Uint32Array;

  constructor(private readonly texts: readonly string[]) {
    const count = texts.length;
    const words = new Uint32Array(count * 2);
    for (let i = 0; i < count; i++) {
      // Little-endian: the position is the low word.
      words[2 * i] = i;
      words[2 * i + 1] = hashOf(texts[i] as string);
    }
    new BigUint64Array(words.buffer).sort();
    this.words = words;
  }

  /** The positions of the texts equal to one before them, in order. */
  repeats(): number[] {
    const { words, texts } = this;
    const count = texts.length;
    const found: number[] = [];
    for (let start = 0; start < count; ) {
      let end = start + 1;
      while (end < count && words[2 * end + 1] === words[2 * start + 1]) end++;
      if (end - start > 1) {
        // Texts of one hash, in position order: each one equal to an earlier one repeats it.
        const earlier = new Set<string>();
        for (let k = start; k < end; k++) {
          const at = words[2 * k] as number;
          const text = texts[at] as string;
          if (earlier.has(text)) found.push(at);
          else earlier.add(text);
        }
      }
      start = end;
    }
    return found.sort((a, b) => a - b);
  }

  /** The first position of `text`, or -1. */
  indexOf(text: string): number {
    const { words, texts } = this;
    const hash = hashOf(text);
    // The first entry whose hash is not below `hash`.
    let low = 0;
    let high = texts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((words[2 * middle + 1] as number) < hash) low = middle + 1;
      else high = middle;
    }
    for (let k = low; k < texts.length && words[2 * k + 1] === hash; k++) {
      const at = words[2 * k] as number;
      if (texts[at] === text) return at;
    }
    return -1;
  }
}

/** FNV-1a over the UTF-16 code units, unsigned. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let c = 0; c < text.length; c++) hash = Math.imul(hash ^ text.charCodeAt(c), 0x01000193);
  return hash >>> 0;
}
