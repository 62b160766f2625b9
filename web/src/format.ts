/** Credits as the API writes them (12.5) shown as money (12.50). */
export const credits = (amount: number) =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A count as people read it: 3,000. */
export const count = (value: number) => value.toLocaleString('en-US');

export const date = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { year: 'numeric', month: 'short', day: 'numeric' });

export const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** A moment to come: its time today, with the date on another day. */
export const moment = (iso: string) =>
  new Date(iso).toDateString() === new Date().toDateString()
    ? time(iso)
    : `${date(iso)}, ${time(iso)}`;

/** A wait in seconds as people say it: "about 20 minutes", "45 seconds". */
export function wait(seconds: number): string {
  if (seconds < 90) {
    const whole = Math.max(1, Math.round(seconds));
    return whole === 1 ? '1 second' : `${whole} seconds`;
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minutes`;
  return `about ${Math.round(minutes / 60)} hours`;
}

/**
 * An amount typed by a person, checked as the API checks it: a number above 0 with at most two
 * decimals. Returns the problem in words, or null when it is fine.
 */
export function amountProblem(text: string, available: number | null): string | null {
  // A comma is taken for the decimal point (12,50), unless it looks like a thousands separator.
  if (/^\s*\d{1,3}(,\d{3})+(\.\d*)?\s*$/.test(text)) {
    return 'Write the amount without a thousands separator, such as 1000 or 12.50.';
  }
  const typed = text.trim().replace(',', '.');
  if (typed === '') return 'Enter an amount, such as 12.50.';
  if (!/^\d+(\.\d{1,2})?$/.test(typed)) {
    if (/^\d*\.\d{3,}$/.test(typed)) return 'Use at most two decimals, such as 12.50.';
    if (/^\d+\.$/.test(typed))
      return 'Put the cents after the point, or leave it out: 12 or 12.50.';
    return 'Enter an amount in credits using digits, such as 12.50.';
  }
  const value = Number(typed);
  if (value <= 0) return 'Enter an amount above 0.';
  if (available !== null && value > available) {
    return `That is more than the ${credits(available)} credits you have.`;
  }
  return null;
}
