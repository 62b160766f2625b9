// The search index of the listings: what each of their words weighs (BM25F), and how a term's
// postings are stored. The same for both databases (docs/discovery.md, "Ranking").

import type { ListingEntry } from './catalog.schemas.js';
import { FIELD_NAMES, FIELDS, STATUS_WEIGHTS, type Field } from './catalog.ranking.js';
import { nameKey, stem } from './catalog.text.js';
import { CONCEPT_PHRASES, phraseTerm } from './catalog.concepts.js';
import { PostingList } from './catalog.posting-list.js';
import { grown, WordTable } from './catalog.words.js';

/** BM25's term-frequency saturation. */
export const K1 = 1.2;

const STATUS_CODES = Object.keys(STATUS_WEIGHTS);
/** The status is kept in the bits above the fields' in each posting's mask. */
const STATUS_SHIFT = 8;

export const statusWeight = (mask: number): number =>
  STATUS_WEIGHTS[STATUS_CODES[mask >> STATUS_SHIFT] ?? 'active'] ?? 1;

/** Which fields a posting's mask says the term was found in. */
export const fieldsOf = (mask: number): Field[] =>
  FIELD_NAMES.filter((_, bit) => (mask & (1 << bit)) !== 0);

/** The postings term of a whole name, alias or id, compared with a whole query. */
export const exactTerm = (key: string): string => `=${key}`;

/** The concept map's phrases of several words, by their first stem. */
const PHRASES_BY_FIRST = new Map<string, (readonly string[])[]>();
for (const stems of CONCEPT_PHRASES) {
  const first = stems[0] ?? '';
  PHRASES_BY_FIRST.set(first, [...(PHRASES_BY_FIRST.get(first) ?? []), stems]);
}
const SECOND_STEMS = new Set(CONCEPT_PHRASES.map((stems) => stems[1] ?? ''));
/** Bits of a term's role in the concept phrases: it starts one, it is one's second word. */
const FIRST = 1;
const SECOND = 2;

/** What counting a term in a field of the listing being added needs. */
interface Tally {
  norm: number;
  bit: number;
  status: number;
  stamp: number;
  touched: number[];
}

function fieldTexts(entry: ListingEntry): Record<Field, string[]> {
  return {
    name: [entry.name],
    aliases: [...(entry.aliases ?? []), entry.id.replace(/-/g, ' ')],
    use_cases: entry.use_cases,
    summary: [entry.summary],
    categories: [entry.kind, ...entry.categories],
    description: [entry.description],
    protocols: entry.protocols,
    limitations: entry.limitations,
  };
}

/**
 * The postings of many listings, gathered term by term. Each distinct word is stemmed and
 * looked up once (a catalog repeats a few thousand words millions of times); a listing's term
 * frequencies are summed in arrays indexed by term, not in a map of objects.
 */
export class PostingsBuilder {
  /** Each word seen in a listing given to add() or observe(). */
  private readonly words = new WordTable();
  /** By word number: its term's number (-1: none yet). */
  private termOfWord = new Int32Array(1024).fill(-1);
  private readonly numbers = new Map<string, number>();
  /** By term number: the term and its postings. */
  readonly terms: string[] = [];
  readonly lists: PostingList[] = [];
  /** The seqs of the listings added. */
  readonly added: number[] = [];
  /** Per term, for the listing being added: its frequency and mask, valid when seen = stamp. */
  private frequency = new Float64Array(1024);
  private mask = new Uint16Array(1024);
  private seen = new Uint32Array(1024);
  /** By term number: its role in the phrases of the concept map (FIRST, SECOND bits). */
  private phraseRole = new Uint8Array(1024);
  /** The term number of each concept phrase met. */
  private readonly phraseNumbers = new Map<readonly string[], number>();
  private stamp = 0;
  /** Where each text of the field last scanned ends in `words.found`. */
  private textEnds: number[] = [];

  /** The term's number, and an empty list for it if it has none yet. */
  termNumber(term: string): number {
    let number = this.numbers.get(term);
    if (number === undefined) {
      number = this.terms.length;
      this.numbers.set(term, number);
      this.terms.push(term);
      this.lists.push(new PostingList());
      if (number === this.seen.length) {
        this.frequency = grown(this.frequency);
        this.mask = grown(this.mask);
        this.seen = grown(this.seen);
        this.phraseRole = grown(this.phraseRole);
      }
      this.phraseRole[number] =
        (PHRASES_BY_FIRST.has(term) ? FIRST : 0) | (SECOND_STEMS.has(term) ? SECOND : 0);
    }
    return number;
  }

  private termOfWordNumber(word: number): number {
    while (word >= this.termOfWord.length) {
      const more = new Int32Array(this.termOfWord.length * 2).fill(-1);
      more.set(this.termOfWord);
      this.termOfWord = more;
    }
    let term = this.termOfWord[word] ?? -1;
    if (term < 0)
      this.termOfWord[word] = term = this.termNumber(stem(this.words.words[word] ?? ''));
    return term;
  }

  /** The words of a field's texts, in `words.found` up to the returned end (each text's in `textEnds`). */
  private scan(texts: readonly string[]): number {
    let end = 0;
    this.textEnds.length = 0;
    for (const text of texts) this.textEnds.push((end = this.words.scan(text, end)));
    return end;
  }

  /**
   * Counts the concept phrases that start at `words.found[at]` (whose term, `first`, starts
   * one) and go on in the words that follow, within the same text.
   */
  private tallyPhrases(at: number, first: number, field: Tally): void {
    let end = 0;
    for (const textEnd of this.textEnds) if ((end = textEnd) > at) break;
    for (const stems of PHRASES_BY_FIRST.get(this.terms[first] ?? '') ?? []) {
      if (at + stems.length > end) continue;
      let matched = 1;
      while (
        matched < stems.length &&
        this.terms[this.termOfWordNumber(this.words.found[at + matched] ?? 0)] === stems[matched]
      )
        matched++;
      if (matched < stems.length) continue;
      let number = this.phraseNumbers.get(stems);
      if (number === undefined)
        this.phraseNumbers.set(stems, (number = this.termNumber(phraseTerm(stems))));
      this.tally(number, field);
    }
  }

  /** Counts one occurrence of a term in a field of the listing being added. */
  private tally(term: number, { norm, bit, status, stamp, touched }: Tally): void {
    if (this.seen[term] !== stamp) {
      this.seen[term] = stamp;
      this.frequency[term] = 0;
      this.mask[term] = status;
      touched.push(term);
    }
    (this.frequency[term] as number) += norm;
    (this.mask[term] as number) |= 1 << bit;
  }

  /** Adds a listing's postings: each term's saturated, weighted frequency, and its fields. */
  add(entry: ListingEntry, seq: number): void {
    const status = Math.max(0, STATUS_CODES.indexOf(entry.status)) << STATUS_SHIFT;
    const stamp = ++this.stamp;
    this.added.push(seq);
    const touched: number[] = [];
    const texts = fieldTexts(entry);
    for (const [bit, field] of FIELD_NAMES.entries()) {
      const { weight, length, b } = FIELDS[field];
      const count = this.scan(texts[field]);
      const norm = weight / (1 - b + (b * Math.max(count, 1)) / length);
      const tally: Tally = { norm, bit, status, stamp, touched };
      let previous = -1;
      for (let i = 0; i < count; i++) {
        const term = this.termOfWordNumber(this.words.found[i] ?? 0);
        this.tally(term, tally);
        // A concept phrase counts as a term of its own where its words stand together: looked
        // for at a word that can be a phrase's second after one that can start one.
        if (
          ((this.phraseRole[term] as number) & SECOND) !== 0 &&
          previous !== -1 &&
          ((this.phraseRole[previous] as number) & FIRST) !== 0
        )
          this.tallyPhrases(i - 1, previous, tally);
        previous = term;
      }
    }
    for (const term of touched) {
      const tf = this.frequency[term] ?? 0;
      this.lists[term]?.push(seq, Math.fround((tf * (K1 + 1)) / (K1 + tf)), this.mask[term] ?? 0);
    }
    // A listing's whole name, aliases and id, each once.
    for (const text of [entry.name, ...texts.aliases]) {
      const key = nameKey(text);
      if (key === '') continue;
      const term = this.termNumber(exactTerm(key));
      if (this.seen[term] === stamp) continue;
      this.seen[term] = stamp;
      this.lists[term]?.push(seq, 1, status | 1);
    }
  }

  /** Records a listing's words (for the vocabulary) without adding its postings or terms. */
  observe(entry: ListingEntry): void {
    for (const texts of Object.values(fieldTexts(entry))) this.scan(texts);
  }

  /** The words a misspelt query word may be corrected to: the listings' words of 4+ letters. */
  vocabulary(): string[] {
    return this.words.words.filter((word) => word.length >= 4 && /^[a-z]+$/.test(word)).sort();
  }

  /**
   * Renames each listing added under a stand-in seq (its position, from 1) to `seqs[position -
   * 1]`, and drops the postings of those whose new seq is 0 (their words stay in the vocabulary,
   * as if they had been observed).
   */
  renumber(seqs: Uint32Array): void {
    for (const list of this.lists) {
      let kept = 0;
      for (let i = 0; i < list.length; i++) {
        const seq = seqs[(list.seqs[i] ?? 0) - 1] ?? 0;
        if (seq === 0) continue;
        list.seqs[kept] = seq;
        list.weights[kept] = list.weights[i] ?? 0;
        list.masks[kept] = list.masks[i] ?? 0;
        kept++;
      }
      list.length = kept;
    }
    this.added.length = 0;
    for (const seq of seqs) if (seq > 0) this.added.push(seq);
  }

  /**
   * What was gathered, in a few arrays that pass to another thread without a copy; terms
   * without postings are left out. The work of storing them is done here, on the thread that
   * packs: the terms come in order, and each term's postings in the order they are stored.
   */
  pack(): PackedIndex {
    const numbers = this.terms.flatMap((_, number) =>
      (this.lists[number]?.length ?? 0) > 0 ? [number] : [],
    );
    inTermOrder(this.terms, numbers);
    const lengths = Uint32Array.from(numbers, (number) => this.lists[number]?.length ?? 0);
    const total = lengths.reduce((sum, length) => sum + length, 0);
    const packed = {
      words: this.words.words,
      terms: numbers.map((number) => this.terms[number] ?? ''),
      lengths,
      seqs: new Uint32Array(total),
      weights: new Float32Array(total),
      masks: new Uint16Array(total),
      added: Uint32Array.from(this.added),
    };
    let at = 0;
    for (const number of numbers) {
      const list = this.lists[number] as PostingList;
      list.copyStored(packed.seqs, packed.weights, packed.masks, at);
      at += list.length;
    }
    return packed;
  }

  /** The builder that packed `packed`, to go on adding to. */
  static unpack(packed: PackedIndex): PostingsBuilder {
    const index = new PostingsBuilder();
    for (const word of packed.words) index.words.number(word);
    let at = 0;
    for (const [number, term] of packed.terms.entries()) {
      const list = index.lists[index.termNumber(term)] as PostingList;
      const length = packed.lengths[number] ?? 0;
      list.length = length;
      list.seqs = packed.seqs.subarray(at, at + length);
      list.weights = packed.weights.subarray(at, at + length);
      list.masks = packed.masks.subarray(at, at + length);
      at += length;
    }
    for (const seq of packed.added) index.added.push(seq);
    return index;
  }
}

/**
 * Sorts term numbers by their terms, in the order the postings table keeps them (fast on
 * numbers already in that order).
 */
export function inTermOrder(terms: readonly string[], numbers: number[]): number[] {
  return numbers.sort((a, b) => ((terms[a] ?? '') < (terms[b] ?? '') ? -1 : 1));
}

/** A PostingsBuilder's postings and words (`pack`): each term's list is `lengths[term]` long. */
export interface PackedIndex {
  words: string[];
  terms: string[];
  lengths: Uint32Array<ArrayBuffer>;
  seqs: Uint32Array<ArrayBuffer>;
  weights: Float32Array<ArrayBuffer>;
  masks: Uint16Array<ArrayBuffer>;
  added: Uint32Array<ArrayBuffer>;
}
