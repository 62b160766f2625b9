import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchWords } from '../../src/modules/catalog/catalog.text.js';

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
