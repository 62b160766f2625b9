import { AppError } from '../../http/errors.js';

/** "1 minute", "15 minutes": a game setting in words. */
export const minutes = (count: number) => `${count} minute${count === 1 ? '' : 's'}`;

export const sessionNotActive = (status: string) =>
  new AppError(
    'session_not_active',
    `This negotiation is ${status}: it is over and takes no more offers, accepts or walk-aways.`,
  );
/** Credits short of what the action needs, said with the amounts when they are known. */
export const insufficientCredits = (message = 'You do not have enough credits for that.') =>
  new AppError('insufficient_credits', message);
export const outOfStock = () => new AppError('out_of_stock', 'That product is out of stock.');
/** The product of an active negotiation sold out: no turn of it can make a deal. */
export const soldOutMeanwhile = () =>
  new AppError(
    'out_of_stock',
    'That product sold out during this negotiation, so it can no longer end in a deal. Nothing was changed: walk away from it (abandon) to free its place among your active negotiations.',
  );
/** The player walked away from this product (or the talk ended without a deal) too recently. */
export const coolingDown = (until: string, waitMs: number) =>
  new AppError(
    'cooling_down',
    `Your last negotiation for this product ended without a deal; you may start a new one at ${until}.`,
    { headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) } },
  );
/** The negotiation went without an offer for the idle limit. */
export const sessionExpired = (idleMinutes: number) =>
  new AppError(
    'session_not_active',
    `This negotiation is expired: it had no offer for ${minutes(idleMinutes)}, so its counter-offer no longer stands.`,
  );
/** The player holds as many active negotiations as allowed. */
export const tooManyActive = (maxActive: number, waitMs: number) =>
  new AppError(
    'too_many_active',
    `You already have ${maxActive} active negotiations, the most allowed at once: finish or abandon one first (idle ones expire on their own).`,
    { headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
  );

/** The key a turn was authenticated with was replaced (rotated) before the turn took its lock. */
export const keyReplaced = () =>
  new AppError(
    'unauthorized',
    'This API key was replaced while the request waited: send the current key. Nothing was changed.',
  );
