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

/** Whether one of `messages` is `rule`'s (no-restricted-imports puts the import before it and drops the full stop). */
const refusedBy = (messages: string[], rule: string) =>
  messages.some((message) => message.includes(rule.replace(/\.$/, '')));

const OTHER_FEATURE =
  'A feature never imports another feature: move what both need to ui/, api/ or lib/.';
const APP_SHELL = 'Features do not import the app shell.';
const SHARED = 'Shared code (ui, api, lib) never imports features or the app shell.';
const NAMED = 'Named exports only (a page is lazy-loaded by its name: lib/lazy-page.ts).';
const NO_REEXPORT = 'No re-exports: import from the file that defines it.';

describe('the console keeps the web app’s boundaries (lint)', () => {
  it.each([
    [
      "import { useRentalQueue } from '@/features/mining/api/get-rental-queue.ts';",
      'apps/admin/src/features/kyc/planted.ts',
      OTHER_FEATURE,
    ],
    [
      "import { PAGES } from '@/app/pages.ts';",
      'apps/admin/src/features/operator/planted.ts',
      APP_SHELL,
    ],
    [
      "import { useRoleName } from '@/app/shell.tsx';",
      'apps/admin/src/features/operator/api/planted.ts',
      APP_SHELL,
    ],
    [
      "import { useKycQueue } from '@/features/kyc/api/get-kyc-queue.ts';",
      'apps/admin/src/ui/planted.tsx',
      SHARED,
    ],
    ["import { PAGES } from '@/app/pages.ts';", 'apps/admin/src/lib/planted.ts', SHARED],
    [
      "import { LoginPage } from '@/features/auth/login-page.tsx';",
      'apps/admin/src/api/planted.ts',
      SHARED,
    ],
  ])(
    '%s in %s is refused',
    async (code, file, message) => {
      expect(refusedBy(await lintAs(file, code), message)).toBe(true);
    },
    30_000,
  );

  it('a feature may import its own files and shared code; the app may import features', async () => {
    const feature =
      "import { useKycQueue } from '@/features/kyc/api/get-kyc-queue.ts';\nimport { http } from '@/api/http.ts';\nexport const planted = [useKycQueue, http];\n";
    expect(await lintAs('apps/admin/src/features/kyc/planted.ts', feature)).toEqual([]);
    const app =
      "import { LoginPage } from '@/features/auth/login-page.tsx';\nexport const planted = LoginPage;\n";
    expect(await lintAs('apps/admin/src/app/planted.ts', app)).toEqual([]);
  }, 30_000);

  it.each([
    ['export default function Planted() {\n  return null;\n}\n', NAMED],
    ["export { errorText } from '@/lib/form-errors.ts';\n", NO_REEXPORT],
    ["export * from '@/lib/form-errors.ts';\n", NO_REEXPORT],
  ])(
    '%s is refused: named exports, no barrels',
    async (code, message) => {
      expect(
        refusedBy(await lintAs('apps/admin/src/features/kyc/planted.tsx', code), message),
      ).toBe(true);
    },
    30_000,
  );
});
