import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryPlan } from '../../src/modules/catalog/catalog.concepts.js';
import { NARROWER, SYNONYMS } from '../../src/modules/catalog/catalog.synonyms.js';
import {
  closeEnough,
  contentWords,
  editDistance,
  joiningWords,
  nameKey,
  searchWords,
} from '../../src/modules/catalog/catalog.text.js';

/** The words of a text by the Unicode rule alone (what searchWords does for any text). */
const unicodeWords = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

describe('search words', () => {
  it('should split ASCII text exactly as the Unicode rule does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 200 }), (text) => {
        expect(searchWords(text)).toEqual(unicodeWords(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('should remove accents and keep letters of any script', () => {
    expect(searchWords('Crème Brûlée — naïve Ångström, 東京 2024!')).toEqual([
      'creme',
      'brulee',
      'naive',
      'angstrom',
      '東京',
      '2024',
    ]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        expect(searchWords(text)).toEqual(unicodeWords(text));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('concept map', () => {
  const plan = (text: string) => queryPlan(contentWords(text), joiningWords(text));

  it('should give every phrase words to find, each phrase in one line only', () => {
    const seen = new Map<string, number>();
    SYNONYMS.forEach((line, i) => {
      for (const phrase of line) {
        expect(nameKey(phrase), phrase).not.toBe('');
        // The same words joined otherwise ("text to image", "text in images") are another phrase.
        const key = `${nameKey(phrase)} | ${joiningWords(phrase).join(' | ')}`;
        expect(seen.get(key) ?? i, `${phrase} is in two lines`).toBe(i);
        seen.set(key, i);
      }
    });
  });

  it.each([
    ['speech to text', ['transcription', 'dictation', 'audio to text']],
    ['transcribe', ['speech to text', 'asr']],
    ['offline', ['on device', 'without internet']],
    ['locally', ['offline', 'on device']],
    ['self hosted', ['on premises', 'local', 'offline']],
    ['drive a browser', ['browser automation', 'headless browser']],
    ['cron', ['scheduler', 'recurring jobs']],
    ['jailbreak', ['guardrails', 'prompt injection']],
  ])('should read %s as its concept, with its equivalents', (query, equivalents) => {
    const [group] = plan(query);
    expect(group?.alternatives[0]).toMatchObject({ kind: 'typed', weight: 1 });
    const labels = group?.alternatives.map((alternative) => alternative.label) ?? [];
    expect(labels).toEqual(expect.arrayContaining(equivalents));
  });

  it('should find a narrower need for a broader one, not the other way round', () => {
    // What runs locally may still call a hosted API; self-hosted software may need a server.
    const labels = (text: string) =>
      plan(text)[0]?.alternatives.map((alternative) => alternative.label) ?? [];
    expect(labels('offline')).not.toContain('local');
    expect(labels('offline')).not.toContain('self hosted');
    expect(labels('offline')).not.toContain('on premises');
    expect(labels('local')).not.toContain('self hosted');
    for (const [broader, narrower] of NARROWER) expect(labels(broader)).toContain(narrower);
  });

  it('should tell phrases of the same words apart by the word that joins them', () => {
    expect(joiningWords('text to the image')).toEqual(['', 'to']);
    expect(joiningWords('chat with my documents')).toEqual(['', 'with']);
    expect(joiningWords('convert a pdf into markdown')).toEqual(['', '', 'to']);
    const labels = (text: string) =>
      plan(text).map((group) => group.alternatives.map((alternative) => alternative.label));
    expect(labels('text to image')[0]).toContain('image generation');
    expect(labels('text to image')[0]).not.toContain('ocr');
    expect(labels('extract text from images')[1]).toContain('ocr');
    expect(labels('extract text from images')[1]).not.toContain('image generation');
    expect(labels('convert a pdf into markdown')[1]).toContain('document parsing');
    // Joined the other way, the words are no phrase; with no joining word, they still are.
    expect(labels('speech from text')).toEqual([['speech'], ['text']]);
    expect(labels('speech text')[0]).toContain('transcription');
  });

  it('should take the longest phrase and leave other words as they are', () => {
    const groups = plan('I need something that does speech to text for podcasts');
    expect(groups.map((group) => group.words)).toEqual(['speech text', 'podcasts']);
    expect(groups[1]?.alternatives).toHaveLength(1);
  });
});

describe('corrections', () => {
  it.each([
    ['playwrite', 'playwright'],
    ['vectr', 'vector'],
    ['agnet', 'agent'],
    ['transcripton', 'transcription'],
    ['embedings', 'embeddings'],
    ['langchian', 'langchain'],
    ['qdant', 'qdrant'],
    ['aegnt', 'agent'],
  ])('should take %s for %s', (word, term) => {
    expect(closeEnough(word, term)).toBeDefined();
  });

  it.each([
    ['sglang', 'lang'],
    ['modal', 'model'],
    ['modal', 'mode'],
    ['sentry', 'sentence'],
    ['cron', 'cross'],
    ['smithery', 'smith'],
    ['smithery', 'langsmith'],
    ['llama', 'whisper'],
    // Another first letter, a replaced letter in a short word, a short word made longer: each
    // is another word, and the correction would only do harm.
    ['golang', 'colang'],
    ['scala', 'scale'],
    ['mail', 'main'],
    ['mail', 'mali'], // two letters swapped in a word of four
    ['speak', 'speaker'],
  ])('should not take %s for %s', (word, term) => {
    expect(closeEnough(word, term)).toBeUndefined();
  });

  it('should count edits, a swap of neighbours as one', () => {
    expect(editDistance('agnet', 'agent')).toBe(1);
    expect(editDistance('playwrite', 'playwright')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, a)).toBe(0);
      }),
    );
  });
});
