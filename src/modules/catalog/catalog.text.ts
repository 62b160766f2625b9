/**
 * The words of a text as both search engines index them: accents removed (NFKD without
 * combining marks), lower case, split on anything that is not a letter or a digit. Both SQLite
 * FTS5 and PostgreSQL are given these same words, so they agree on what matches.
 */
export function searchWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** '|a|b|': a list stored so that a LIKE '%|value|%' matches whole elements only. */
export function elementKey(values: readonly string[]): string {
  return `|${values.map((value) => value.toLowerCase()).join('|')}|`;
}

/** Escapes LIKE's wildcards so that `%` and `_` in a filter are searched for, not interpreted. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}
