import { AppError } from '../../http/errors.js';

export const sessionNotActive = (status: string) =>
  new AppError('session_not_active', `This negotiation is ${status}; it takes no more offers.`);
export const insufficientCredits = () =>
  new AppError('insufficient_credits', 'You do not have enough credits for that.');
export const outOfStock = () => new AppError('out_of_stock', 'That product is out of stock.');
