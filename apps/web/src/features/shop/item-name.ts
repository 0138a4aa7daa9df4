import { SHOP_ITEMS, type ShopItemId } from '@tradewind/contract/shop';
import { formatDecimal } from '@/lib/format.ts';
import type { TFunction } from '@/lib/i18n.ts';

/** A reward item is named by what it pays ("5 USDT"); a physical item by its catalogue name. */
export function itemName(id: ShopItemId, t: TFunction, language: string): string {
  const item = SHOP_ITEMS[id];
  return item.kind === 'reward'
    ? `${formatDecimal(item.amount, language)} ${item.asset}`
    : t(`shop.item.${id}`);
}
