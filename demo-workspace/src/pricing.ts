import { add, money, percentOf, toCents, type Money } from './money';

export interface LineItem {
  sku: string;
  price: number;
  quantity: number;
}

// ADR-3: every discount goes through applyDiscount so the cap holds for all callers.
const MAX_DISCOUNT_PERCENT = 50;

export function subtotal(items: LineItem[]): Money {
  return items.reduce((sum, item) => add(sum, money(item.price * item.quantity)), money(0));
}

export function applyDiscount(total: Money, percents: number[]): Money {
  const requested = percents.reduce((a, b) => a + b, 0);
  const capped = Math.min(requested, MAX_DISCOUNT_PERCENT);
  const discount = percentOf(total, capped);
  return { minor: total.minor - discount.minor, currency: total.currency };
}

export function legacyTotalCents(items: LineItem[]): number {
  return items.reduce((sum, item) => sum + toCents(item.price) * item.quantity, 0);
}
