import { applyDiscount, subtotal, type LineItem } from './pricing';
import type { Money } from './money';

export class Cart {
  private readonly items: LineItem[] = [];

  add(item: LineItem): void {
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) existing.quantity += item.quantity;
    else this.items.push({ ...item });
  }

  total(discounts: number[] = []): Money {
    return applyDiscount(subtotal(this.items), discounts);
  }

  lines(): readonly LineItem[] {
    return this.items;
  }
}
