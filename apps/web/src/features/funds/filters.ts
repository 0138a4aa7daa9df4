import { FUNDS_MAX_RANGE_MS } from '@tradewind/contract/funds';
import type { AssetCode, EntryType, Wallet } from '@tradewind/contract/wallet';
import type { Params } from '@tradewind/http-client/params';

export interface Filters {
  types: EntryType[];
  asset?: AssetCode;
  wallet?: Wallet;
  /** First and last calendar day, inclusive, in the device's time zone. */
  range?: [Date, Date];
}

const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
const nextDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);

/** The instants the server filters on: from the first day's midnight to the midnight after the last day. */
export function rangeInstants(range: [Date, Date]): { from: Date; to: Date } {
  return { from: startOfDay(range[0]), to: nextDay(range[1]) };
}

/** The calendar prompt's rule (spec §5): at most 90 days, as the server counts them. */
export function rangeFits(range: [Date, Date]): boolean {
  const { from, to } = rangeInstants(range);
  return to.getTime() - from.getTime() <= FUNDS_MAX_RANGE_MS;
}

export function filterParams(filters: Filters): Params {
  const range = filters.range ? rangeInstants(filters.range) : undefined;
  return {
    type: filters.types.length > 0 ? filters.types : undefined,
    asset: filters.asset,
    wallet: filters.wallet,
    from: range?.from.toISOString(),
    to: range?.to.toISOString(),
  };
}
