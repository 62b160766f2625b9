/**
 * What a person reads when something fails: the API's error codes and field names in plain
 * words. The API's own sentences are written for programs and never shown as they are.
 */
import { ApiError } from './api/client';
import { wait } from './format';

/** An id that names no catalog listing, said before filing as well as when the service refuses it. */
export const noSuchListing =
  'No catalog listing has this id. Leave it empty, or copy the id from a listing page.';

const fields: Record<string, string> = {
  username:
    'Choose a username of 3 to 32 letters A to Z (without accents), digits, dots, dashes or underscores.',
  email: 'Enter a valid e-mail address.',
  task: 'Describe what you need in 12 to 3,000 characters.',
  contact: 'Keep the contact to 254 characters at most.',
  capability_id: noSuchListing,
  offer_amount: 'Enter an amount above 0 with at most two decimals, such as 12.50.',
  message: 'Keep your message to the seller under 1,000 characters.',
  round:
    'This negotiation moved on in another window or tab. It is shown as it stands now: make your offer again if you still want to.',
  q: 'Use up to 300 characters of ordinary text.',
};

/** What a field's problem means, by the API's error code: a secret found is not a length. */
function fieldText(code: string, field: string): string | undefined {
  if (code === 'contains_secret') {
    return 'This looks like a password, key or token: remove it.';
  }
  return code === 'validation_error' || code === 'invalid_amount' ? fields[field] : undefined;
}

const codes: Record<string, string> = {
  network: 'The service cannot be reached. Check your connection and try again.',
  unauthorized: 'This key is not valid any more. Sign in again with your current key.',
  not_found: 'We could not find that. It may have been removed, or the link is incomplete.',
  insufficient_credits: 'You do not have enough credits for that.',
  out_of_stock: 'This product has just sold out.',
  session_not_active:
    'This negotiation has ended: it takes no more offers, and its price can no longer be accepted.',
  no_counter_offer: 'The seller has not made a counter-offer yet: make an offer first.',
  too_many_active:
    'You already have the most open negotiations allowed. Finish or walk away from one first.',
  identity_conflict:
    'That username belongs to one player and that e-mail address to another. Use the pair you registered with.',
  contains_secret:
    'This looks like it contains a password, key or token. Remove it: requests must not carry secrets.',
  daily_limit_reached: 'Today’s limit of requests is reached.',
  rate_limited: 'Too many requests at once.',
  payload_too_large: 'That is too long to send.',
  uri_too_long: 'This link is too long to be a real address: it was probably cut or mangled.',
  storage_unavailable: 'Nothing was saved: the service cannot store data right now.',
  internal_error: 'Something went wrong on our side. Nothing was changed; please try again.',
};

/** A failure in words a person can act on, with when to retry if the service said. */
export function problemText(failure: unknown): string {
  if (!(failure instanceof ApiError)) return codes.internal_error ?? '';
  if (failure.code === 'validation_error' || failure.code === 'invalid_amount') {
    const first = failure.details
      .map((detail) => fieldText(failure.code, detail.field))
      .find(Boolean);
    return first ?? 'Some of what you entered is not in the expected form. Check it and try again.';
  }
  if (failure.code === 'too_many_active' && failure.retryAfter !== null) {
    // The wait is for the oldest to end by itself; walking away frees a place at once.
    return `${codes.too_many_active} Otherwise a place frees up in ${wait(failure.retryAfter)}, when the oldest ends by itself.`;
  }
  if (failure.code === 'cooling_down') {
    const when = failure.retryAfter === null ? 'a little while' : wait(failure.retryAfter);
    // The player walked away, or the seller or the clock ended it: said without blaming either.
    return `A negotiation of yours for this product ended without a deal recently. You can open a new one in ${when}.`;
  }
  const known = codes[failure.code] ?? codes.internal_error ?? '';
  return failure.retryAfter === null || failure.retryAfter <= 0
    ? known
    : `${known} Try again in ${wait(failure.retryAfter)}.`;
}

/** Each field's problem in words, for showing next to the field. */
export function fieldProblems(failure: unknown): Record<string, string> {
  if (!(failure instanceof ApiError)) return {};
  return Object.fromEntries(
    failure.details.flatMap((detail) => {
      const text = fieldText(failure.code, detail.field);
      return text === undefined ? [] : [[detail.field, text]];
    }),
  );
}

/**
 * A form's failure: each field's problem to show by the field, and what the form says above
 * them (only that the fields need a look when they say it all: the same sentence twice is noise).
 */
export function formFailure(failure: unknown): { error: string; fields: Record<string, string> } {
  const fields = fieldProblems(failure);
  const marked = Object.keys(fields).length;
  return {
    fields,
    error:
      marked === 0
        ? problemText(failure)
        : `Check the field${marked === 1 ? '' : 's'} marked below.`,
  };
}

/** What the seller objected to in an offer, said to the buyer (only while the talk goes on). */
export const objectionText: Record<string, string> = {
  insult:
    'The seller found that offer insulting (below 40 % of the market price). One more like it ends the negotiation.',
  retreat:
    'You offered less than before. The seller keeps its price; one more step back ends the negotiation.',
  stall:
    'Your offer did not go up enough to count, so the seller did not move. Raise your offer to make progress.',
};

export const statusText: Record<string, string> = {
  active: 'In progress',
  accepted: 'Deal made',
  rejected: 'Ended by the seller',
  abandoned: 'You walked away',
  // By time (no offer for the idle limit) or at round 10 below the final counter.
  expired: 'Ended without a deal',
};

export const requestKinds = {
  capability: 'A capability',
  correction: 'A correction to a listing',
  pilot: 'A pilot',
} as const;

/** A listing's lifecycle in words. */
export const lifecycleText: Record<string, string> = {
  active: 'active',
  maintenance: 'in maintenance',
  deprecated: 'deprecated',
  archived: 'archived',
};

export const licenceKindText: Record<string, string> = {
  open_source: 'open source',
  source_available: 'source available',
  proprietary: 'proprietary',
  unknown: 'licence unknown',
};

/** A listing's licence in words: its SPDX id and kind, or the kind alone. */
export function licenceText(provenance: { license: string | null; license_kind: string }): string {
  const kind = licenceKindText[provenance.license_kind] ?? provenance.license_kind;
  return provenance.license === null ? kind : `${provenance.license} (${kind})`;
}

/** How a negotiation ended without a deal, said to the buyer. */
export const endedWithoutDeal: Record<string, string> = {
  rejected: 'The seller ended this negotiation. No credits were spent.',
  expired: 'This negotiation has ended without a deal. No credits were spent.',
  abandoned: 'You walked away from this negotiation. No credits were spent.',
};
