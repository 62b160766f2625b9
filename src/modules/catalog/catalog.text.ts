import { stemmer } from 'stemmer';

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
 * Words that say nothing about what is searched for: stop words, the scaffolding of a need
 * written as a sentence ("is there something that lets me …", "which tool can I use for …")
 * and what an apostrophe leaves of a possessive or contraction ("what's", "don't", "I'll").
 * They are left out of queries and of the exact-name keys, unless a text has no other words.
 */
const STOP_WORDS = new Set(
  (
    'a about able allow allows also am an and any anything app are as at be been best but by can ' +
    'could do does doing find for from get give gives good has have help helps how i if in into ' +
    'is it its just kind let lets like ll looking m make makes many me more most much my need needs ' +
    'of on one or our over own please recommend s should so some something sort such suggest t ' +
    'than that the their them then there these they thing things this to tool tools try trying ' +
    'us use using ve very want wants was way we were what when where whether which who will with ' +
    'would you your'
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

/** Words that join others without saying which way: left out of what joins two words. */
const NEUTRAL_JOINS = new Set(
  'a an the my your our their its this that these those some any'.split(' '),
);
/** Joining words read as another of the same sense. */
const SAME_JOIN: Record<string, string> = { into: 'to', onto: 'on', within: 'in' };

/**
 * What joins each of `contentWords(text)` to the one before it: the stop words between them
 * that say which way ("to" in "text to image", "from" in "text from images"), less articles
 * and possessives; '' where nothing does (always for the first word).
 */
export function joiningWords(text: string): string[] {
  const words = searchWords(text);
  const joins: string[] = [];
  let between: string[] = [];
  for (const word of words) {
    if (!STOP_WORDS.has(word)) {
      joins.push(joins.length === 0 ? '' : between.join(' '));
      between = [];
    } else if (!NEUTRAL_JOINS.has(word)) between.push(SAME_JOIN[word] ?? word);
  }
  return joins.length > 0 ? joins : words.map(() => '');
}

/** A name or alias as compared with a whole query: its content words' stems. */
export const nameKey = (text: string): string => contentWords(text).map(stem).join(' ');

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

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        (rows[0] as number[])[j] = j;
        continue;
      }
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] ?? 0;
}

/**
 * How near a vocabulary word must be for an unknown query word to be taken for it (a score, the
 * higher the nearer; undefined when not near). The first letter is kept (or swapped with the
 * second): a word that starts otherwise is another word ("golang" is not "colang"). Then: one
 * edit in a word of six letters or more; in a shorter one, two letters swapped ("agnet"; not in
 * a word of four, where a swap as often makes another word: "mail" is not "mali") or one
 * letter added or dropped keeping most trigrams, never one replaced, which so often makes another
 * word ("mail" is not "main", "scala" not "scale"); two edits in one of seven or more that keeps
 * many; or, in one of six or more, three at most, most trigrams shared, and the word not cut
 * short ("playwrite" → "playwright", not "smithery" → "smith"; "speak" is not "speaker").
 * Product names one or two letters from a common word ("sglang", "modal", "cron") are not near.
 */
export function closeEnough(word: string, term: string): number | undefined {
  if (word.length < 4 || Math.abs(word.length - term.length) > 3) return undefined;
  const letters = (text: string) => Array.from(text).sort().join('');
  const swap = word.length > 4 && word.length === term.length && letters(word) === letters(term);
  if (word[0] !== term[0] && !(swap && word[1] === term[0])) return undefined;
  const similarity = trigramSimilarity(word, term);
  const edits = editDistance(word, term);
  const long = word.length >= 6;
  const near =
    (edits === 1 && (long || swap || (word.length !== term.length && similarity >= 0.4))) ||
    (edits === 2 && word.length >= 7 && similarity >= 0.4) ||
    (long && similarity >= 0.5 && edits <= 3 && term.length >= word.length - 1);
  return near ? similarity - edits / 10 : undefined;
}

/** The word of `terms` nearest to `word` (closeEnough), if any; ties by the word. */
export function nearest(terms: readonly string[], word: string): string | undefined {
  let best: { term: string; score: number } | undefined;
  for (const term of terms) {
    const score = closeEnough(word, term);
    if (score !== undefined && (best === undefined || score > best.score)) best = { term, score };
  }
  return best?.term;
}
