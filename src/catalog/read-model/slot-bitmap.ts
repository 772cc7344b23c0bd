/**
 * A set of slots (small non-negative integers: the search index's product numbers) as one
 * bit each, in a typed array that grows to the highest slot held. For a term in many
 * products it takes a fraction of a Set's memory: a Set keeps 20 to 40 bytes a slot, this
 * an eighth of a byte for every slot up to the highest, held or not. The search index keeps
 * the slots of its common words in them (search-index.ts, Postings).
 */
export class SlotBitmap {
  #words: Uint32Array;
  #size = 0;

  /** @param slots Room for slots below this from the start (it grows past it as needed). */
  constructor(slots: number) {
    this.#words = new Uint32Array(Math.ceil(slots / 32));
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes of its bits: what it costs beside its own object. */
  get byteLength(): number {
    return this.#words.byteLength;
  }

  has(slot: number): boolean {
    return ((this.#words[slot >>> 5] ?? 0) & bit(slot)) !== 0;
  }

  add(slot: number): this {
    const word = slot >>> 5;
    if (word >= this.#words.length) {
      // Grows by half again at least, so that slots added one after another copy it rarely.
      const words = new Uint32Array(Math.max(word + 1, Math.ceil(this.#words.length * 1.5)));
      words.set(this.#words);
      this.#words = words;
    }
    if ((this.#words[word]! & bit(slot)) === 0) {
      this.#words[word]! |= bit(slot);
      this.#size++;
    }
    return this;
  }

  /** Removes the slot; answers whether it was held. */
  delete(slot: number): boolean {
    if (!this.has(slot)) return false;
    this.#words[slot >>> 5]! &= ~bit(slot);
    this.#size--;
    return true;
  }

  /** Calls `visit` with each slot held, in ascending order. */
  forEach(visit: (slot: number) => void): void {
    const words = this.#words;
    for (let word = 0; word < words.length; word++) {
      let bits = words[word]!;
      while (bits !== 0) {
        // The lowest bit set, then cleared.
        const low = bits & -bits;
        visit(word * 32 + 31 - Math.clz32(low));
        bits ^= low;
      }
    }
  }
}

const bit = (slot: number) => 1 << (slot & 31);
