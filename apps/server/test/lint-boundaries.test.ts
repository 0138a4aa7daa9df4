import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The messages ESLint gives `code` as if it were the file at `file` (relative to the repository). */
async function lintAs(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => m.message);
}

const DOOR =
  'Only modules/ledger reads and writes ledger tables: call the ledger service instead (ARCHITECTURE §3).';

describe('only the ledger touches its tables (lint)', () => {
  it.each([
    ["import { assets } from '../ledger/tables.ts';", 'apps/server/src/modules/ieo/planted.ts'],
    [
      "import { entries } from '../../modules/ledger/tables';",
      'apps/server/src/platform/planted.ts',
    ],
    [
      "import { postings } from '#modules/ledger/tables.ts';",
      'apps/server/src/modules/contracts/planted.ts',
    ],
  ])(
    '%s in %s is refused',
    async (code, file) => {
      expect(await lintAs(file, `${code}\nexport const planted = 1;\n`)).toContain(DOOR);
    },
    30_000,
  );

  it('the ledger itself, and other schemas referencing its tables, may import them', async () => {
    const code = "import { assets } from '../ledger/tables.ts';\nexport const planted = assets;\n";
    expect(await lintAs('apps/server/src/modules/ieo/tables.ts', code)).not.toContain(DOOR);
    expect(
      await lintAs('apps/server/src/modules/ledger/planted.ts', code.replace('../ledger/', './')),
    ).not.toContain(DOOR);
  }, 30_000);
});

const ABOVE =
  'The ledger imports only the platform, the contract and schemas (foreign keys): what it needs from a module is handed in (docs/decisions/0018).';

describe('the ledger imports no module above it (lint)', () => {
  it.each([
    "import { openObligations } from '../contracts/service.ts';",
    "import { audit } from '../operator/service.ts';",
    "import { LOCKED_FUND_OBLIGATIONS } from '../../obligations.ts';",
    "import type { AppServices } from '../../services.ts';",
    "import { withdrawalsObligation } from '#modules/withdrawal/obligations.ts';",
  ])(
    '%s in the ledger is refused',
    async (code) => {
      expect(
        await lintAs(
          'apps/server/src/modules/ledger/planted.ts',
          `${code}\nexport const planted = 1;\n`,
        ),
      ).toContainEqual(expect.stringContaining(ABOVE));
    },
    30_000,
  );

  it('the platform, the contract, its own files and another schema are allowed', async () => {
    const code = [
      "import { users } from '../user/tables.ts';",
      "import { AppError } from '#platform/errors.ts';",
      "import { ASSETS } from '@tradewind/contract/wallet';",
      "import { checkLedger } from './invariants.ts';",
      'export const planted = [users, AppError, ASSETS, checkLedger];',
    ].join('\n');
    expect(
      await lintAs('apps/server/src/modules/ledger/planted.ts', `${code}\n`),
    ).not.toContainEqual(expect.stringContaining(ABOVE));
    // Elsewhere the rule does not apply: a module may import the ledger and its peers.
    expect(
      await lintAs(
        'apps/server/src/modules/wallet/planted.ts',
        "import { audit } from '../operator/service.ts';\nexport const planted = audit;\n",
      ),
    ).not.toContainEqual(expect.stringContaining(ABOVE));
  }, 30_000);
});
