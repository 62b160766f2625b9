/** Cents as credits with two decimals, e.g. 1234 → "12.34", with integer arithmetic only. */
export function formatCredits(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
