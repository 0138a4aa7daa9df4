import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The contract is written on zod/mini (decision 0021): the web app downloads no more of zod
 * than the functions its schemas call. One import of zod classic (`zod`, `zod/v4`,
 * `zod/v4/classic`, or zod 3) would put all of classic in every first screen, and nothing
 * else would fail.
 */

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src');
const CLASSIC = /^zod(\/v4(\/classic)?|\/v3)?(\/index(\.js)?)?$/;

/** Every module a file imports or re-exports, statically or with `import()`. */
function importedModules(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map(
    (match) => match[1] as string,
  );
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? sourceFiles(path.join(dir, entry.name))
        : /\.(ts|tsx|js|mjs)$/.test(entry.name)
          ? [path.join(dir, entry.name)]
          : [],
    );
}

describe('the contract imports zod/mini only', () => {
  it('finds an import of classic in any form', () => {
    const classic = (source: string) =>
      importedModules(source).filter((name) => CLASSIC.test(name));
    expect(classic("import { z } from 'zod';")).toEqual(['zod']);
    expect(classic('import type { z } from "zod";')).toEqual(['zod']);
    expect(
      classic("import * as z from 'zod/v4';\nexport { string } from 'zod/v4/classic';"),
    ).toEqual(['zod/v4', 'zod/v4/classic']);
    expect(classic("const { z } = await import('zod');")).toEqual(['zod']);
    expect(classic("import 'zod';")).toEqual(['zod']);
    expect(
      classic("import * as z from 'zod/mini';\nimport type { $ZodType } from 'zod/v4/core';"),
    ).toEqual([]);
  });

  it('no file of packages/contract/src imports zod classic', () => {
    const files = sourceFiles(src);
    expect(files.length).toBeGreaterThan(30);
    const offenders = files.flatMap((file) =>
      importedModules(fs.readFileSync(file, 'utf8'))
        .filter((name) => CLASSIC.test(name))
        .map((name) => `${path.relative(src, file)}: ${name}`),
    );
    expect(offenders).toEqual([]);
  });
});
