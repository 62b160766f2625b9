// A query's words as groups: a word, or a phrase of the concept map with its equivalents.

import { NARROWER, SYNONYMS } from './catalog.synonyms.js';
import { joiningWords, nameKey, searchWords, stem } from './catalog.text.js';

export interface Alternative {
  /** What a hit's `matched` names: the words as typed, or the equivalent found. */
  label: string;
  /** The stems typed, or an equivalent's one term (a stem, or a phrase term: `phraseTerm`). */
  terms: string[];
  /** 1 for the words as typed (or corrected); less for an equivalent or a prefix. */
  weight: number;
  kind: 'typed' | 'equivalent' | 'prefix';
  /**
   * For typed words that are a concept phrase of several words: its phrase terms. A listing
   * with none of them (the words only apart, or some of them) weighs the words `APART_WEIGHT`.
   */
  together?: string[];
}

export interface QueryGroup {
  /** The query words the group stands for, as typed. */
  words: string;
  alternatives: Alternative[];
  /** The catalog word an unknown word was corrected to. */
  corrected?: string;
}

/** An equivalent of the concept map weighs less than the words as typed. */
export const CONCEPT_WEIGHT = 0.8;

/**
 * Typed words that are a concept phrase of several words weigh this much in a listing where
 * they do not stand together, in order, in one text (`together`).
 */
export const APART_WEIGHT = 0.5;

/**
 * The postings term of a phrase of several words (their stems, stop words included): a listing
 * has it where those words stand together in that order in one text of a field ("speech-to-text"
 * has `speech to text`; "speech from text" and "speech locally from text" do not).
 */
export const phraseTerm = (stems: readonly string[]): string => `"${stems.join(' ')}`;

const concepts = SYNONYMS.map((line) =>
  line.map((phrase) => {
    const words = searchWords(phrase).map(stem);
    return {
      phrase,
      /** Its content words' stems, as a query's words are compared with it. */
      stems: nameKey(phrase).split(' ').filter(Boolean),
      /** What joins each of those words to the one before ("to" in `speech to text`). */
      joins: joiningWords(phrase),
      /** What finds it in a listing: its stem, or for several words its phrase term. */
      term: words.length > 1 ? phraseTerm(words) : (words[0] ?? ''),
      words,
    };
  }),
);

/** The line of each phrase of the concept map. */
const lineOf = (phrase: string) => {
  const line = concepts.findIndex((phrases) => phrases.some((each) => each.phrase === phrase));
  if (line === -1) throw new Error(`${phrase} is in no line of the concept map`);
  return line;
};

/** By line: the lines it is broader than (NARROWER), transitively, itself first. */
const reach = concepts.map((_, start) => {
  const found = [start];
  for (let i = 0; i < found.length; i++)
    for (const [broader, narrower] of NARROWER)
      if (lineOf(broader) === found[i] && !found.includes(lineOf(narrower)))
        found.push(lineOf(narrower));
  return found;
});

/** The concept map's phrases of several words, as stems: the ones indexed as phrase terms. */
export const CONCEPT_PHRASES: readonly (readonly string[])[] = concepts.flatMap((line) =>
  line.flatMap(({ words }) => (words.length > 1 ? [words] : [])),
);

/**
 * Whether words joined as typed (`typed`, from `joiningWords`) may be a phrase's words joined by
 * `own`: yes where either has no joining word, or they share one. "speech text" and "speech to
 * text" are `speech to text`; "speech from text" is not, nor is "text from images" `text to
 * image`.
 */
const joinedAlike = (typed: string, own: string) =>
  typed === '' || own === '' || typed.split(' ').some((word) => own.split(' ').includes(word));

/**
 * Turns query words (from `contentWords`, with what joins them from `joiningWords`) into groups:
 * the longest phrase of the concept map at each place, joined as typed or without joining words,
 * becomes one group of all its equivalents (those of its line, and of the lines it is broader
 * than); any other word is a group of itself.
 */
export function queryPlan(words: readonly string[], joins: readonly string[] = []): QueryGroup[] {
  const stems = words.map(stem);
  const groups: QueryGroup[] = [];
  let i = 0;
  while (i < stems.length) {
    let best: { length: number; line: number } | undefined;
    for (const [line, phrases] of concepts.entries()) {
      for (const { stems: phrase, joins: own } of phrases) {
        if (
          phrase.length > (best?.length ?? 0) &&
          phrase.every(
            (part, offset) =>
              stems[i + offset] === part &&
              (offset === 0 || joinedAlike(joins[i + offset] ?? '', own[offset] ?? '')),
          )
        )
          best = { length: phrase.length, line };
      }
    }
    const length = best?.length ?? 1;
    const typed = stems.slice(i, i + length);
    const text = words.slice(i, i + length).join(' ');
    const lines = best === undefined ? [] : (reach[best.line] ?? []);
    const phrases = lines.flatMap((line) => concepts[line] ?? []);
    // Typed words that are a phrase count fully only where they stand together (its phrase term).
    const together = phrases.flatMap(({ stems: other, term, words }) =>
      length > 1 && words.length > 1 && other.join(' ') === typed.join(' ') ? [term] : [],
    );
    const alternatives: Alternative[] = [
      {
        label: text,
        terms: typed,
        weight: 1,
        kind: 'typed',
        ...(together.length > 0 && { together: [...new Set(together)] }),
      },
    ];
    for (const { phrase, stems: other, term } of phrases) {
      if (other.join(' ') !== typed.join(' '))
        alternatives.push({
          label: phrase,
          // An equivalent of several words is found as a phrase, not as words anywhere.
          terms: [term],
          weight: CONCEPT_WEIGHT,
          kind: 'equivalent',
        });
    }
    groups.push({ words: text, alternatives });
    i += length;
  }
  return groups;
}
