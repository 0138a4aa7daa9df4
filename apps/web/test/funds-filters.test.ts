import { fundsQuerySchema } from '@tradewind/contract/funds';
import { describe, expect, it } from 'vitest';
import { serializeParams } from '@tradewind/http-client/params';
import { filterParams, rangeFits, rangeInstants } from '@/features/funds/filters.ts';

/** What the server's query parser makes of a query string: repeated keys become arrays. */
function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const existing = out[key];
    out[key] =
      existing === undefined
        ? value
        : Array.isArray(existing)
          ? [...existing, value]
          : [existing, value];
  }
  return out;
}

const day = (y: number, m: number, d: number) => new Date(y, m - 1, d);

describe('funds detail filters', () => {
  it('a range runs from the first day at midnight to the midnight after the last day', () => {
    const { from, to } = rangeInstants([day(2026, 11, 1), day(2026, 11, 21)]);
    expect(from).toEqual(day(2026, 11, 1));
    expect(to).toEqual(day(2026, 11, 22));
  });

  it('the calendar accepts at most 90 days (spec §5), as the server counts them', () => {
    expect(rangeFits([day(2026, 8, 24), day(2026, 11, 21)])).toBe(true); // 90 days
    expect(rangeFits([day(2026, 8, 23), day(2026, 11, 21)])).toBe(false); // 91 days
    expect(rangeFits([day(2026, 11, 21), day(2026, 11, 21)])).toBe(true);
  });

  it('several types go as repeated keys, and the server schema accepts what the client sends', () => {
    const params = filterParams({
      types: ['conversion', 'conversion_fee'],
      asset: 'USDT',
      wallet: 'spot',
      range: [day(2026, 8, 24), day(2026, 11, 21)],
    });
    const search = serializeParams({ ...params, limit: 20 });
    expect(search).toContain('type=conversion&type=conversion_fee');
    const parsed = fundsQuerySchema.safeParse(parseQuery(search.slice(1)));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.type).toEqual(['conversion', 'conversion_fee']);
    expect(parsed.data?.limit).toBe(20);
  });

  it('one type is one key; no filter sends nothing', () => {
    expect(serializeParams(filterParams({ types: ['system'] }))).toBe('?type=system');
    expect(serializeParams(filterParams({ types: [] }))).toBe('');
    expect(fundsQuerySchema.safeParse(parseQuery('type=system')).data?.type).toEqual(['system']);
  });

  it('91 days are refused by the shared schema too, with the calendar prompt', () => {
    const params = filterParams({ types: [], range: [day(2026, 8, 23), day(2026, 11, 21)] });
    const parsed = fundsQuerySchema.safeParse(parseQuery(serializeParams(params).slice(1)));
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['validation.range_max_days']);
  });
});
