import { describe, expect, it } from 'vitest';
import { applyDiscount } from '../src/pricing';
import { money } from '../src/money';

describe('applyDiscount', () => {
  it('applies a percentage discount', () => {
    expect(applyDiscount(money(100), [10]).minor).toBe(9000);
  });

  it('caps stacked discounts at 50%', () => {
    expect(applyDiscount(money(100), [40, 30]).minor).toBe(5000);
  });
});
