import { stemmer } from 'stemmer';
import { SYNONYMS } from './catalog.synonyms.js';

/**
 * The words of a text: accents removed (NFKD without combining marks), lower case, split on
 * anything that is not a letter or a digit.
 */
export function searchWords(text: string): string[] {
  // ASCII text (most of it) has no accents to remove and only ASCII letters and digits:
  // the same words, without the cost of normalizing and matching Unicode classes.
  if (ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}
// No UTF-16 unit of U+0080 or above (without the u flag, characters beyond U+FFFF are two such units).
const ASCII = /^[^\u0080-\uffff]*$/;

/**
 * Words that say nothing about what is searched for ("which tool can I use for …"). They are
 * left out of queries and of the exact-name keys, unless a text has no other words.
 */
const STOP_WORDS = new Set(
  (
    'a an and any are as at be best by can could do does find for from good how i in is it ' +
    'its looking me my need of on or our some something that the there this to tool tools use ' +
    'using want we what which who with you your'
  ).split(' '),
);

/**
 * Porter stems (English): "databases" and "database" both index and search as "databas".
 * British -ise/-yse spellings are first turned into -ize/-yze, so "optimisation" meets
 * "optimization" (applied alike to listings and queries, so a rare false merge is harmless).
 */
export function stem(word: string): string {
  let result = stems.get(word);
  if (result === undefined) {
    result = stemmer(
      word.length >= 6 ? word.replace(/([iy])s(e|es|ed|ing|er|ers|ation|ations)$/, '$1z$2') : word,
    );
    // Remembered, because loading a large catalog stems the same few thousand words again and
    // again; bounded, because queries may bring any word.
    if (stems.size >= 200_000) stems.clear();
    stems.set(word, result);
  }
  return result;
}
const stems = new Map<string, string>();

/** The words that carry meaning: stop words dropped unless nothing else is left. */
export function contentWords(text: string): string[] {
  const words = searchWords(text);
  const kept = words.filter((word) => !STOP_WORDS.has(word));
  return kept.length > 0 ? kept : words;
}

/** The stems both engines index for a text (every word, stop words included). */
export const indexStems = (text: string): string => searchWords(text).map(stem).join(' ');

/** A name or alias as compared with a whole query: its content words' stems. */
export const nameKey = (text: string): string => contentWords(text).map(stem).join(' ');

/** One word to find: its stem exactly, or, for a prefix, any word starting with the stem or with the word as typed. */
export interface Term {
  stem: string;
  prefix: string | null;
}
/** A query is a list of groups, all of which must match; a group matches when any of its alternatives does, an alternative when all its terms do. */
export type Group = Term[][];

const synonymPhrases = SYNONYMS.map((group) => group.map((phrase) => nameKey(phrase).split(' ')));

/**
 * Turns query words (from `contentWords`) into groups: a phrase of the shared synonym table
 * becomes one group of all its equivalents; any other word is a group of itself. The last word
 * also matches as a prefix (search as you type) unless it ends a synonym phrase.
 */
export function queryGroups(words: readonly string[]): Group[] {
  const stems = words.map(stem);
  const groups: Group[] = [];
  let i = 0;
  while (i < stems.length) {
    let best: { length: number; group: string[][] } | undefined;
    for (const group of synonymPhrases) {
      for (const phrase of group) {
        if (
          phrase.length > (best?.length ?? 0) &&
          phrase.every((part, offset) => stems[i + offset] === part)
        ) {
          best = { length: phrase.length, group };
        }
      }
    }
    if (best !== undefined) {
      groups.push(best.group.map((phrase) => phrase.map((part) => ({ stem: part, prefix: null }))));
      i += best.length;
    } else {
      const last = i === stems.length - 1;
      const word = words[i] ?? '';
      groups.push([[{ stem: stems[i] ?? '', prefix: last ? word : null }]]);
      i += 1;
    }
  }
  return groups;
}

/** '|a|b|': a list stored so that a LIKE '%|value|%' matches whole elements only. */
export function elementKey(values: readonly string[]): string {
  return `|${values.map((value) => value.toLowerCase()).join('|')}|`;
}

/** Escapes LIKE's wildcards so that `%` and `_` in a filter are searched for, not interpreted. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A word's trigrams as PostgreSQL's pg_trgm forms them: padded with two spaces before and one after. */
function trigrams(word: string): Set<string> {
  const chars = Array.from(`  ${word} `);
  const result = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) result.add(chars.slice(i, i + 3).join(''));
  return result;
}

/** pg_trgm's `similarity` for single words: shared trigrams over all distinct trigrams. */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared++;
  return shared / (left.size + right.size - shared);
}

/**
 * How close a word must be to a name or alias word to be taken for it: just above pg_trgm's
 * default threshold of its `%` operator, and no small fraction, so that PostgreSQL's float4 and
 * this process's float64 never fall on different sides of it.
 */
export const TYPO_SIMILARITY = 0.305;
