/**
 * The positions of the texts that repeat an earlier one, in order: for each text equal to
 * one before it, its index.
 *
 * A Set of a million strings takes most of a second to fill on a small machine (a dummy's
 * million ids are checked here at every start). Sorting a million numbers takes a tenth of
 * that, so each text becomes a 32-bit hash beside its index, packed into one 64-bit number
 * (hash high, index low); after a numeric sort, equal texts sit side by side among those of
 * equal hash, and only those are compared as strings. Exact whatever the hash collisions.
 */
export function repeats(texts: readonly string[]): number[] {
  const count = texts.length;
  const words = new Uint32Array(count * 2);
  for (let i = 0; i < count; i++) {
    // FNV-1a over the UTF-16 code units; little-endian, so the index is the low word.
    const text = texts[i] as string;
    let hash = 0x811c9dc5;
    for (let c = 0; c < text.length; c++) hash = Math.imul(hash ^ text.charCodeAt(c), 0x01000193);
    words[2 * i] = i;
    words[2 * i + 1] = hash;
  }
  const packed = new BigUint64Array(words.buffer).sort();
  const found: number[] = [];
  const sorted = new Uint32Array(packed.buffer);
  for (let start = 0; start < count; ) {
    let end = start + 1;
    while (end < count && sorted[2 * end + 1] === sorted[2 * start + 1]) end++;
    if (end - start > 1) {
      // Texts of one hash, in index order: each one equal to an earlier one repeats it.
      const earlier = new Set<string>();
      for (let k = start; k < end; k++) {
        const index = sorted[2 * k] as number;
        const text = texts[index] as string;
        if (earlier.has(text)) found.push(index);
        else earlier.add(text);
      }
    }
    start = end;
  }
  return found.sort((a, b) => a - b);
}
