import { describe, expect, it } from 'vitest';
import { pick, unitInterval } from '../../src/seller/hash.js';

/** Session ids that differ in their last characters only: the hardest inputs for a weak hash. */
const sessionIds = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
  );

describe('the hash behind the choice of words', () => {
  it('should give the same number for the same parts, in [0, 1), and tell the parts apart', () => {
    const value = unitInterval('a-session', 'reason', '3');
    expect(unitInterval('a-session', 'reason', '3')).toBe(value);
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThan(1);
    expect(unitInterval('ab', 'c')).not.toBe(unitInterval('a', 'bc'));
    expect(unitInterval('abc')).not.toBe(unitInterval('ab', 'c'));
  });

  it('should choose each of n variants equally often over near-identical session ids', () => {
    const n = 7;
    const ids = sessionIds(70_000);
    const counts = new Array<number>(n).fill(0);
    for (const id of ids) {
      const variant = pick(n, id, 'reason', '3');
      counts[variant] = (counts[variant] ?? 0) + 1;
    }
    const expected = ids.length / n;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // The 0.1 % critical value of χ² with 6 degrees of freedom.
    expect(chiSquare).toBeLessThan(22.46);
  });

  it('should choose independently from round to round and from slot to slot', () => {
    const n = 5;
    const ids = sessionIds(50_000);
    let sameRound = 0;
    let sameSlot = 0;
    for (const id of ids) {
      const chosen = pick(n, id, 'reason', '3');
      if (pick(n, id, 'reason', '4') === chosen) sameRound += 1;
      if (pick(n, id, 'closer', '3') === chosen) sameSlot += 1;
    }
    // 1 in n by chance; the bounds are about five standard deviations wide.
    expect(Math.abs(sameRound / ids.length - 1 / n)).toBeLessThan(0.01);
    expect(Math.abs(sameSlot / ids.length - 1 / n)).toBeLessThan(0.01);
  });
});
