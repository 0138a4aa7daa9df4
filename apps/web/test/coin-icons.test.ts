import fs from 'node:fs';
import path from 'node:path';
import { ASSET_CODES } from '@tradewind/contract/wallet';
import { describe, expect, it } from 'vitest';
import { COINS_DIR, coinIconFiles } from '../scripts/coin-icons.ts';

describe('coin icons', () => {
  it('every wallet asset has its icon, exactly as the maintained set draws it', async () => {
    const expected = await coinIconFiles();
    expect([...expected.keys()].sort()).toEqual(ASSET_CODES.map((a) => `${a}.svg`).sort());
    for (const [name, contents] of expected)
      expect(fs.readFileSync(path.join(COINS_DIR, name), 'utf8'), name).toBe(contents);
    // Nothing else in the folder, and nothing that loads from elsewhere.
    expect(fs.readdirSync(COINS_DIR).sort()).toEqual([...expected.keys()].sort());
    for (const contents of expected.values()) expect(contents).not.toMatch(/(href|src)="http/);
  });
});
