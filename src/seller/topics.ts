/**
 * What a player's words are about, by keyword: deterministic, so the same words always get the
 * same acknowledgement. The topic chooses words only; no price depends on it.
 */
export type Topic =
  'walk_away' | 'limit' | 'budget' | 'student' | 'complaint' | 'compliment' | 'question';

/** In priority order: the first topic whose pattern matches is the one acknowledged. */
const PATTERNS: readonly [Topic, RegExp][] = [
  [
    'limit',
    /\b(final offer|last offer|my (limit|max(imum)?|best)|best i can do|can'?t go (any )?higher|cannot go (any )?higher|not a cent more|take it or leave it|that'?s all i)\b/,
  ],
  [
    'walk_away',
    /\b(walk(ing)? away|leav(e|ing)|go(ing)? elsewhere|somewhere else|another (shop|seller|store)|forget it|no deal then|i'?m out|buy it elsewhere)\b/,
  ],
  [
    'budget',
    /\b(budget|afford|broke|tight on money|short on (cash|money|credits)|all i have|low on (cash|money|credits)|savings)\b/,
  ],
  ['student', /\b(student|college|universit(y|ies)|school|tuition|studying|campus)\b/],
  [
    'complaint',
    /\b(too (expensive|much|high|pricey)|overpriced|rip[- ]?off|outrageous|ridiculous|steep|expensive|greedy|daylight robbery)\b/,
  ],
  [
    'compliment',
    /\b(love (it|this|your)|beautiful|lovely|great (shop|store|product|item|quality)|nice (shop|store|product|item)|good quality|well made|gorgeous|amazing)\b/,
  ],
];

/** The topic of a player's words, or null when none is recognised. */
export function topicOf(text: string | null): Topic | null {
  if (text === null) return null;
  const words = text.toLowerCase().replace(/[’`]/g, "'");
  for (const [topic, pattern] of PATTERNS) if (pattern.test(words)) return topic;
  return words.includes('?') ? 'question' : null;
}
