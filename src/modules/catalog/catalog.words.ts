// The distinct words of many texts, each numbered once. A catalog load reads millions of words
// but only thousands of distinct ones: an ASCII text is read code by code and each word looked
// up where it stands, without making a string of it (only a new word becomes one).

import { searchWords } from './catalog.text.js';

/** A typed array twice as long (at least 4), starting with `from`'s elements. */
export function grown<
  T extends Int32Array | Uint32Array | Float32Array | Float64Array | Uint16Array | Uint8Array,
>(from: T): T {
  const to = new (from.constructor as new (length: number) => T)(Math.max(4, from.length * 2));
  to.set(from);
  return to;
}

/** The word character (a lower-case letter or digit) of an ASCII code, or 0 for a separator. */
const WORD_CODE = new Uint8Array(128);
for (let code = 48; code <= 57; code++) WORD_CODE[code] = code;
for (let code = 97; code <= 122; code++) WORD_CODE[code] = WORD_CODE[code - 32] = code;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class WordTable {
  /** By word number: the word, and its hash. */
  readonly words: string[] = [];
  private hashes = new Int32Array(1024);
  /** Open addressing: a word number + 1 per slot, 0 when empty. */
  private slots = new Int32Array(2048);
  /** What scan() found: word numbers, in the order of the text. */
  found = new Int32Array(1024);

  /**
   * Puts the numbers of `text`'s words (the words searchWords splits it into) in `found` from
   * `at` on, and returns where they end.
   */
  scan(text: string, at = 0): number {
    const end = this.scanAscii(text, at);
    if (end >= 0) return end;
    let next = at;
    for (const word of searchWords(text)) {
      if (next === this.found.length) this.found = grown(this.found);
      this.found[next++] = this.number(word);
    }
    return next;
  }

  /** The number of a word (as searchWords makes them), given one if it is new. */
  number(word: string): number {
    let hash = FNV_OFFSET;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const taken = this.slots[slot] ?? 0;
      if (taken === 0) return this.add(word, hash, slot);
      if (this.hashes[taken - 1] === hash && this.words[taken - 1] === word) return taken - 1;
    }
  }

  /** scan() for ASCII text; -1 (nothing kept) at the first code that is not ASCII. */
  private scanAscii(text: string, at: number): number {
    let next = at;
    const length = text.length;
    let i = 0;
    while (i < length) {
      const first = text.charCodeAt(i);
      if (first >= 128) return -1;
      if (WORD_CODE[first] === 0) {
        i++;
        continue;
      }
      const start = i;
      let hash = FNV_OFFSET;
      let code = first;
      do {
        hash = Math.imul(hash ^ (WORD_CODE[code] ?? 0), FNV_PRIME);
        code = ++i < length ? text.charCodeAt(i) : 0;
      } while (code < 128 && WORD_CODE[code] !== 0);
      if (code >= 128) return -1;
      if (next === this.found.length) this.found = grown(this.found);
      this.found[next++] = this.find(text, start, i, hash);
    }
    return next;
  }

  /** The number of the word at text[start, end) in lower case, whose hash is `hash`. */
  private find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const taken = this.slots[slot] ?? 0;
      if (taken === 0) return this.add(text.slice(start, end).toLowerCase(), hash, slot);
      if (
        this.hashes[taken - 1] === hash &&
        sameWord(this.words[taken - 1] ?? '', text, start, end)
      )
        return taken - 1;
    }
  }

  private add(word: string, hash: number, slot: number): number {
    const number = this.words.length;
    this.words.push(word);
    if (number === this.hashes.length) this.hashes = grown(this.hashes);
    this.hashes[number] = hash;
    this.slots[slot] = number + 1;
    if (this.words.length * 2 > this.slots.length) this.rehash();
    return number;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let number = 0; number < this.words.length; number++) {
      let slot = (this.hashes[number] ?? 0) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = number + 1;
    }
    this.slots = slots;
  }
}

/** Whether `word` is text[start, end) in lower case (ASCII). */
function sameWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++)
    if (word.charCodeAt(i) !== WORD_CODE[text.charCodeAt(start + i)]) return false;
  return true;
}
