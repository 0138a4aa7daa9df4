import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every schema the contract exports, fed inputs built from its own shape, with what each
 * input gives written to one file: the parsed value, or each issue's kind, field and
 * `validation.*` message key. The results were recorded while the contract was written on zod
 * classic and the web build patched classic's methods onto zod/mini; the contract on zod/mini
 * gives the same ones (decision 0021), and a change to any schema's behaviour shows here,
 * field by field.
 */

interface Node {
  _zod: { def: Record<string, unknown> & { type: string } };
  safeParse(input: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: { issues: { code: string; path: PropertyKey[]; message: string }[] };
      };
  /** Classic's chainable methods: a zod/mini schema has none. */
  optional?: unknown;
}

const isSchema = (value: unknown): value is Node =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  typeof (value as Node).safeParse === 'function';

const STRINGS = [
  '',
  'a',
  '  Mixed Case  ',
  '2026-11-25T10:00:00.000Z',
  'user@example.com',
  '123.45',
  'x'.repeat(70),
  '0x52908400098527886E0F7030069857D2E4169EE7',
  'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  '+14155552671',
  '13800138000',
  '-0.000001',
];
const NUMBERS = [0, 1, -1, 2.5, 100_000, 30, 1e15, 7];

/** The k-th input for a schema: each leaf takes a different candidate, so k = 0…N covers many combinations. */
function sample(node: Node, k: number, depth = 0): unknown {
  const def = node._zod.def;
  if (depth > 6) return undefined;
  const inner = (key: string) => def[key] as Node;
  switch (def.type) {
    case 'string':
      return STRINGS[k % STRINGS.length];
    case 'number':
      return NUMBERS[k % NUMBERS.length];
    case 'bigint':
      return BigInt(NUMBERS[k % NUMBERS.length] ?? 0);
    case 'boolean':
      return k % 2 === 0;
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>);
      return k % (values.length + 1) === values.length ? 'zz' : values[k % (values.length + 1)];
    }
    case 'literal':
      return (def.values as unknown[])[0];
    case 'object': {
      const shape = def.shape as Record<string, Node>;
      return Object.fromEntries(
        Object.entries(shape).map(([key, value], i) => [key, sample(value, k + i, depth + 1)]),
      );
    }
    case 'array':
      return k % 3 === 0
        ? []
        : [sample(inner('element'), k, depth + 1), sample(inner('element'), k + 1, depth + 1)];
    case 'union': {
      const options = def.options as Node[];
      return sample(options[k % options.length] as Node, k, depth + 1);
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'prefault':
      return k % 4 === 3
        ? def.type === 'nullable'
          ? null
          : undefined
        : sample(inner('innerType'), k, depth + 1);
    case 'pipe':
      return sample(inner('in'), k, depth + 1);
    case 'record':
      return { key: sample(inner('valueType'), k, depth + 1) };
    default:
      return STRINGS[k % STRINGS.length];
  }
}

/** Every schema inside `node` (its fields, elements, options, wrapped and piped schemas). */
function* nodes(node: Node, seen = new Set<Node>()): Generator<Node> {
  if (seen.has(node)) return;
  seen.add(node);
  yield node;
  const def = node._zod.def;
  for (const key of ['innerType', 'element', 'in', 'out', 'valueType', 'keyType'])
    if (isSchema(def[key])) yield* nodes(def[key], seen);
  for (const option of (def.options as unknown[] | undefined) ?? [])
    if (isSchema(option)) yield* nodes(option, seen);
  for (const field of Object.values((def.shape as Record<string, unknown> | undefined) ?? {}))
    if (isSchema(field)) yield* nodes(field, seen);
}

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src');
const files = fs
  .readdirSync(src)
  .filter((file) => file.endsWith('.ts'))
  .sort();
const modules = await Promise.all(
  files.map(
    async (file) =>
      [file, (await import(path.join(src, file))) as Record<string, unknown>] as const,
  ),
);
const schemas: [string, Node][] = modules
  .flatMap(([file, exports]) =>
    Object.entries(exports).flatMap(([name, value]): [string, Node][] =>
      isSchema(value) ? [[`${file}:${name}`, value]] : [],
    ),
  )
  .sort(([a], [b]) => a.localeCompare(b));

const json = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

describe('the contract’s schemas', () => {
  it('are many, and each of their parts is a zod/mini schema (no classic one built elsewhere slipped in)', () => {
    expect(schemas.length).toBeGreaterThan(200);
    const classic = new Set<string>();
    for (const [name, schema] of schemas)
      for (const node of nodes(schema))
        if (typeof node.optional === 'function') classic.add(`${name} (${node._zod.def.type})`);
    expect([...classic]).toEqual([]);
  });

  it('give the recorded result for inputs built from their shape', async () => {
    // Per schema, a digest of its 12 results (print `lines` for one schema to see them).
    const digests: Record<string, string> = {};
    let passing = 0;
    for (const [name, schema] of schemas) {
      const lines = Array.from({ length: 12 }, (_, k) => {
        const result = schema.safeParse(sample(schema, k));
        if (result.success) passing += 1;
        return json(
          result.success
            ? { ok: result.data }
            : {
                issues: result.error.issues.map(
                  (issue) =>
                    `${issue.code}@${issue.path.join('.')}${issue.message.startsWith('validation.') ? ` ${issue.message}` : ''}`,
                ),
              },
        );
      });
      digests[name] = createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
    }
    // The inputs reach past the first check often enough to compare outputs too.
    expect(passing).toBeGreaterThan(200);
    await expect(`${JSON.stringify(digests, null, 1)}\n`).toMatchFileSnapshot(
      './__snapshots__/schema-parity.json',
    );
  });
});
