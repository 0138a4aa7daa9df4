import { rolldown } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import { markPureSchemas } from '../scripts/pure-schemas.ts';

/** A contract-like module: two schemas, one used, and a constant that is not a schema. */
const CONTRACT = `import * as z from 'zod';
export const usedSchema = z.string().check(z.minLength(1, { error: 'used.é' }));
export const unusedSchema = z.object({ a: z.string() }).check(z.refine(() => true, { error: 'unused.ü' }));
export const KINDS = ['a', 'b'];
let counter = 0;
export const counted = (() => ++counter)();
`;

async function bundle(transform: boolean): Promise<string> {
  const build = await rolldown({
    input: 'entry',
    plugins: [
      {
        name: 'virtual',
        resolveId: (id) => id,
        load(id) {
          if (id === 'entry')
            return `import { usedSchema } from 'contract'; console.log(usedSchema.parse('x'));`;
          if (id === 'zod')
            return `export const string = (...a) => ({ check: () => ({ parse: (v) => v, a }) });
export const object = (...a) => ({ check: () => ({ a }) });
export const minLength = (...a) => a; export const refine = (...a) => a;`;
          return transform ? markPureSchemas(CONTRACT, (code) => parseAst(code)) : CONTRACT;
        },
      },
    ],
  });
  const { output } = await build.generate({ format: 'esm' });
  return output[0].code;
}

describe('the contract schemas a build does not use are dropped', () => {
  it('marks each z-rooted initializer pure and nothing else; offsets hold with non-ASCII text', () => {
    const out = markPureSchemas(CONTRACT, (code) => parseAst(code));
    expect(out).toContain(
      "export const usedSchema = /* @__PURE__ */ (() => z.string().check(z.minLength(1, { error: 'used.é' })))();",
    );
    expect(out).toContain("export const KINDS = ['a', 'b'];");
    expect(out).toContain('export const counted = (() => ++counter)();');
  });

  it('without it the unused schema ships; with it, only the used one', async () => {
    const before = await bundle(false);
    expect(before).toContain('unused.ü');
    const after = await bundle(true);
    expect(after).not.toContain('unused.ü');
    expect(after).toContain('used.é');
  });
});
