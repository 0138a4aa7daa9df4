import { describe, expect, it } from 'vitest';
import { VALUE_PATH, diffFields, flatten } from '../src/ui/field-diff.ts';

const json = (value: unknown) => JSON.stringify(value);

describe('the audit log shows what changed, field by field', () => {
  it('a card deposit credited: the status changed, the context kept, the amounts carry their asset', () => {
    const before = json({
      status: 'pending',
      userId: '7',
      amount: '100',
      fee: '1.5',
      actualAmount: '98.5',
    });
    const after = json({ status: 'paid', entryId: '42', credited: '98.5' });
    expect(diffFields(before, after, 'USDT')).toEqual([
      { path: 'status', before: 'pending', after: 'paid', changed: true },
      // Recorded in before only: the context the service checked, left as it was.
      { path: 'userId', before: '7', after: '7', changed: false },
      { path: 'amount', before: '100', after: '100', changed: false, asset: 'USDT' },
      { path: 'fee', before: '1.5', after: '1.5', changed: false, asset: 'USDT' },
      { path: 'actualAmount', before: '98.5', after: '98.5', changed: false, asset: 'USDT' },
      { path: 'entryId', before: undefined, after: '42', changed: true },
      { path: 'credited', before: undefined, after: '98.5', changed: true, asset: 'USDT' },
    ]);
  });

  it('nested objects flatten to dotted paths; unchanged fields are marked unchanged', () => {
    const before = json({ name: 'Gold', limits: { min: '1', max: '10' }, tags: ['a', 'b'] });
    const after = json({ name: 'Gold', limits: { min: '1', max: '20' }, tags: ['a', 'c'] });
    expect(diffFields(before, after)).toEqual([
      { path: 'name', before: 'Gold', after: 'Gold', changed: false },
      { path: 'limits.min', before: '1', after: '1', changed: false },
      { path: 'limits.max', before: '10', after: '20', changed: true },
      { path: 'tags[0]', before: 'a', after: 'a', changed: false },
      { path: 'tags[1]', before: 'b', after: 'c', changed: true },
    ]);
  });

  it('an amount takes the asset beside it, in the same object first, then at the top', () => {
    const after = json({
      asset: 'BTC',
      amount: '0.5',
      fee: { asset: 'USDT', amount: '2' },
      feeRateBps: 25,
      paid: '0.5',
      userId: '12',
    });
    const rows = diffFields(null, after, 'ETH');
    const assetOf = (path: string) => rows.find((row) => row.path === path)?.asset;
    expect(assetOf('amount')).toBe('BTC');
    expect(assetOf('fee.amount')).toBe('USDT');
    expect(assetOf('paid')).toBe('BTC');
    // Rates, ids and the asset itself are not amounts.
    expect(assetOf('feeRateBps')).toBeUndefined();
    expect(assetOf('userId')).toBeUndefined();
    expect(assetOf('asset')).toBeUndefined();
  });

  it('a created object has only after; a deleted one only before', () => {
    expect(diffFields(null, json({ code: 'X' }))).toEqual([
      { path: 'code', before: undefined, after: 'X', changed: true },
    ]);
    expect(diffFields(json({ code: 'X' }), null)).toEqual([
      { path: 'code', before: 'X', after: undefined, changed: true },
    ]);
    expect(diffFields(null, null)).toEqual([]);
  });

  it('null, booleans, numbers and empty containers are values, and text that is not JSON is kept whole', () => {
    expect([...flatten({ frozenAt: null, on: true, n: 3, empty: {}, none: [] }).entries()]).toEqual(
      [
        ['frozenAt', 'null'],
        ['on', 'true'],
        ['n', '3'],
        ['empty', '{}'],
        ['none', '[]'],
      ],
    );
    expect(diffFields('not json {', '"text"')).toEqual([
      { path: VALUE_PATH, before: 'not json {', after: 'text', changed: true },
    ]);
  });

  it('nesting past the depth limit is one JSON value, not thousands of rows', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20; i++) deep = { d: deep };
    const rows = diffFields(null, json(deep));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.path).toBe('d.d.d.d.d.d');
  });
});
