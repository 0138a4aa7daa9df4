import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findImportCycles } from '../../../scripts/import-cycles.ts';

/**
 * The import-cycle rule of `npm run lint` (scripts/import-cycles.ts): a cycle planted through
 * each alias the packages use is found, named file by file, and fails the command.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The cycles that involve any of `files` when the overlay is laid over the repository. */
function plantedCycles(overlay: Record<string, string>) {
  const planted = Object.keys(overlay);
  return findImportCycles({ overlay }).filter((cycle) =>
    cycle.files.some((file) => planted.includes(file)),
  );
}

describe('the import-cycle rule', () => {
  it('finds a cycle through the platform alias (#platform/*)', () => {
    const cycles = plantedCycles({
      'apps/server/src/platform/clock.ts': `${read('apps/server/src/platform/clock.ts')}\nimport '#platform/planted.ts';\n`,
      'apps/server/src/platform/planted.ts':
        "import { systemClock } from './clock.ts';\nexport const planted = systemClock;\n",
    });
    expect(cycles).toEqual([
      {
        files: ['apps/server/src/platform/clock.ts', 'apps/server/src/platform/planted.ts'],
        path: [
          'apps/server/src/platform/clock.ts',
          'apps/server/src/platform/planted.ts',
          'apps/server/src/platform/clock.ts',
        ],
      },
    ]);
  }, 60_000);

  it('finds the ledger importing a module above it, even for a type', () => {
    // contracts/obligations.ts imports the ledger's Obligation type: the ledger naming it back closes a loop.
    const cycles = plantedCycles({
      'apps/server/src/modules/ledger/invariants.ts': `import type { contractOrdersObligation } from '../contracts/obligations.ts';\nexport type Planted = typeof contractOrdersObligation;\n${read('apps/server/src/modules/ledger/invariants.ts')}`,
    });
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.path).toEqual([
      'apps/server/src/modules/contracts/obligations.ts',
      'apps/server/src/modules/ledger/invariants.ts',
      'apps/server/src/modules/contracts/obligations.ts',
    ]);
  }, 60_000);

  it.each([
    [
      'the user app (@/*)',
      'apps/web/src/ui/planted-a.ts',
      'apps/web/src/ui/planted-b.ts',
      '@/ui/planted-b.ts',
    ],
    [
      'the console (@/*, extension left off)',
      'apps/admin/src/ui/planted-a.ts',
      'apps/admin/src/ui/planted-b.ts',
      '@/ui/planted-b',
    ],
  ])(
    'finds a cycle in %s',
    (_name, a, b, alias) => {
      const cycles = plantedCycles({
        [a]: `import { b } from '${alias}';\nexport const a = () => b;\n`,
        [b]: "import { a } from './planted-a.ts';\nexport const b = () => a;\n",
      });
      expect(cycles.map((cycle) => cycle.files)).toEqual([[a, b]]);
    },
    60_000,
  );

  it('finds a cycle through a workspace package (@tradewind/contract/*) and a dynamic import', () => {
    // wallet.ts imports money.ts; money.ts loading wallet.ts back, however late, closes the loop.
    const cycles = plantedCycles({
      'packages/contract/src/money.ts': `${read('packages/contract/src/money.ts')}\nexport const planted = () => import('@tradewind/contract/wallet');\n`,
    });
    expect(cycles.map((cycle) => cycle.files)).toEqual([
      ['packages/contract/src/money.ts', 'packages/contract/src/wallet.ts'],
    ]);
  }, 60_000);

  describe('as a command', () => {
    const fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
    afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      fs.writeFileSync(path.join(fixture, file), text);
    };
    const run = () =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'scripts/import-cycles.ts'), '--root', fixture],
        { cwd: root, encoding: 'utf8' },
      );

    it('exits 1 and lists each cycle; 0 once it is broken', () => {
      write(
        'tsconfig.json',
        JSON.stringify({
          compilerOptions: {
            module: 'ESNext',
            moduleResolution: 'Bundler',
            allowImportingTsExtensions: true,
            noEmit: true,
          },
          include: ['src'],
        }),
      );
      write('src/a.ts', "import { c } from './c.ts';\nexport const a = () => c;\n");
      write('src/b.ts', "import { a } from './a.ts';\nexport const b = () => a;\n");
      write('src/c.ts', "import { b } from './b.ts';\nexport const c = () => b;\n");
      const failed = run();
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain('import cycles: 1');
      expect(failed.stderr).toContain('src/a.ts\n    → src/c.ts\n    → src/b.ts\n    → src/a.ts');

      write('src/c.ts', 'export const c = () => 1;\n');
      const passed = run();
      expect(passed.stderr).toBe('');
      expect(passed.stdout).toMatch(/^import cycles: none/);
      expect(passed.status).toBe(0);
    }, 60_000);
  });
});
