import { Cart } from './cart';
import { applyDiscount, subtotal } from './pricing';
import type { Money } from './money';

export interface Receipt {
  lines: number;
  subtotal: Money;
  total: Money;
}

export function checkout(cart: Cart, loyaltyPercent: number, seasonalPercent = 0): Receipt {
  const before = subtotal([...cart.lines()]);
  const total = applyDiscount(before, [loyaltyPercent, seasonalPercent]);
  return { lines: cart.lines().length, subtotal: before, total };
}
