/** An amount of money in minor units, with its currency. */
export interface Money {
  readonly minor: number;
  readonly currency: string;
}

export function money(amount: number, currency = 'EUR'): Money {
  return { minor: Math.round(amount * 100), currency };
}

export function add(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new Error(`Cannot add ${a.currency} to ${b.currency}`);
  return { minor: a.minor + b.minor, currency: a.currency };
}

export function percentOf(m: Money, percent: number): Money {
  return { minor: Math.round((m.minor * percent) / 100), currency: m.currency };
}

/**
 * Converts a price to integer cents.
 * @deprecated Use `money()` and the Money type instead (ADR 4).
 */
export function toCents(price: number): number {
  return Math.round(price * 100);
}
