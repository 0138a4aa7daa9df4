import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Requests generated from a route's zod 4 schema, for the bad-input suite: a valid-looking
 * value for the whole body or query, then that value with ONE field made hostile — the
 * wrong type, just outside the schema's bounds, empty, huge, odd unicode, a bad amount, or
 * another user's id. Walks `schema._zod.def` (not `z.toJSONSchema`, which refuses the
 * transforms our schemas use).
 */

interface Def {
  type: string;
  [key: string]: unknown;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

/** Values of the victim's that the generator puts into id-like and account fields. */
export interface Pools {
  /** Numeric ids (uid, objects, files, sessions) and public ids of the victim's objects. */
  ids: string[];
  /** The victim's email and phone. */
  accounts: string[];
  /** Ids the caller may name (their own files, the catalog's miners and loan products), so valid-looking requests get past "not found" to the deeper checks. */
  usable: string[];
}

export interface Generated {
  value: Record<string, unknown> | undefined;
  /** What was made hostile, for the failure message: `valid` or `field <- kind`. */
  mutation: string;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

/** The schema a client's value meets first: under optional/default wrappers and the input side of a pipe. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) current = def.innerType as z.core.$ZodType;
    else if (def.type === 'pipe') current = def.in as z.core.$ZodType;
    else return current;
  }
}

function isOptional(schema: z.core.$ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

interface Bounds {
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  integer: boolean;
  patterns: RegExp[];
}

function boundsOf(schema: z.core.$ZodType): Bounds {
  const bounds: Bounds = { integer: false, patterns: [] };
  for (const check of (defOf(schema).checks ?? []) as { _zod: { def: CheckDef } }[]) {
    const def = check._zod.def;
    if (def.check === 'min_length') bounds.minLength = def.minimum;
    else if (def.check === 'max_length') bounds.maxLength = def.maximum;
    else if (def.check === 'greater_than' && def.value !== undefined)
      bounds.min = def.inclusive ? def.value : def.value + 1;
    else if (def.check === 'less_than' && def.value !== undefined)
      bounds.max = def.inclusive ? def.value : def.value - 1;
    else if (def.check === 'number_format')
      bounds.integer = def.format === 'safeint' || def.format === 'int32';
    else if (def.check === 'string_format' && def.pattern) bounds.patterns.push(def.pattern);
  }
  return bounds;
}

const isIdName = (name: string) =>
  name === 'id' || name === 'uid' || /Id$/.test(name) || name === 'cursor';
/** Amount fields are decimal strings checked by this pattern (packages/contract money.ts). */
const isAmount = (bounds: Bounds) =>
  bounds.patterns.some((p) => p.source.includes('\\d{1,30}(\\.\\d{1,18})?'));

/** Amounts a client must never get through: signs, zero, more decimals than any asset has, exponents, overflow. */
const BAD_AMOUNTS = [
  '-1',
  '-0.000001',
  '0',
  '0.0',
  '0.000000',
  '0.0000001',
  '1.0000000000000000001',
  '100.1234567',
  '1e3',
  '1E30',
  '1e30',
  '1000000000000000000000000000000',
  '999999999999999999999999999999.999999999999999999',
  ' 1',
  '1.',
  '.5',
  '+1',
  '0x10',
  '１',
  '١٢٣',
  'NaN',
  'Infinity',
] as const;

/** Ids that are not ids: out of range, signed, fractional, overflowing bigint. */
const BAD_IDS = [
  '0',
  '-1',
  '1.5',
  '01',
  ' 1',
  '9223372036854775807',
  '9223372036854775808',
  '999999999999999999',
  '99999999999999999999',
  '1e3',
  'null',
] as const;

const UNICODE = [
  '\u202Eevil\u202C', // right-to-left override
  'a\u200Bb\u200C\u200D\uFEFF', // zero-width characters
  'e\u0301\u0301\u0301\u0301', // stacked combining marks
  '🙂👨‍👩‍👧‍👦🏳️‍🌈',
  'nul\u0000byte',
  '\u0000',
  'lone\uD800surrogate',
  'Ｆｕｌｌｗｉｄｔｈ',
  '\u0085\u2028\u2029',
] as const;

const HUGE = 'x'.repeat(100_000);

/** Values of every other JSON type than the field's. */
function wrongTypes(type: string): unknown[] {
  const all: Record<string, unknown[]> = {
    string: ['1', 'true'],
    number: [1, -1, 1.5],
    boolean: [true, false],
    object: [{}, { nested: { deep: 1 } }],
    array: [[], ['1']],
    null: [null],
  };
  const own =
    type === 'int' || type === 'bigint'
      ? 'number'
      : type === 'enum' || type === 'literal'
        ? 'string'
        : type;
  return Object.entries(all).flatMap(([key, values]) => (key === own ? [] : values));
}

function safeStringMatching(pattern: RegExp, maxLength: number): fc.Arbitrary<string> | undefined {
  try {
    const arbitrary = fc
      .stringMatching(pattern, { size: 'xsmall' })
      .filter((s) => s.length <= maxLength);
    // Lookaheads and unicode classes are not supported everywhere: try one value before trusting it.
    fc.sample(arbitrary, { numRuns: 1, seed: 1 });
    return arbitrary;
  } catch {
    return undefined;
  }
}

/** Field names whose valid values are known rather than derivable from the schema. */
const KNOWN: Record<string, fc.Arbitrary<unknown>> = {
  symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT'),
  nickname: fc.constantFrom('Night Owl', 'Trader Joe'),
  // The same wrong password in both fields, so a request gets past "passwords do not match".
  password: fc.constant('wrong-password-1'),
  confirmPassword: fc.constant('wrong-password-1'),
  email: fc.constant('someone@example.com'),
};

function validString(schema: z.core.$ZodType, name: string, pools: Pools): fc.Arbitrary<unknown> {
  const bounds = boundsOf(schema);
  const matching = (values: string[]) =>
    values.filter((v) => bounds.patterns.every((p) => p.test(v)));
  if (isIdName(name)) {
    const usable = matching(pools.usable);
    const others = matching(pools.ids);
    const pattern = bounds.patterns[0] && safeStringMatching(bounds.patterns[0], 40);
    return fc.oneof(
      ...(usable.length > 0 ? [{ arbitrary: fc.constantFrom(...usable), weight: 3 }] : []),
      ...(others.length > 0 ? [{ arbitrary: fc.constantFrom(...others), weight: 1 }] : []),
      { arbitrary: pattern ?? fc.constant('1'), weight: 1 },
    );
  }
  if (name === 'account') return fc.constantFrom(...pools.accounts, 'nobody@example.com');
  if (isAmount(bounds)) return fc.constantFrom('1', '10', '0.5', '100', '25.25', '0.000001');
  const pattern =
    bounds.patterns[0] && safeStringMatching(bounds.patterns[0], bounds.maxLength ?? 200);
  if (pattern) return pattern;
  const known = KNOWN[name];
  if (known) return known;
  const minLength = bounds.minLength ?? 0;
  return fc.string({
    minLength,
    maxLength: Math.max(minLength, Math.min(bounds.maxLength ?? 24, 24)),
  });
}

/** A value the schema would likely accept (refinements aside): the base each mutation starts from. */
export function validValue(
  schema: z.core.$ZodType,
  name: string,
  pools: Pools,
): fc.Arbitrary<unknown> {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const bounds = boundsOf(inner);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const fields = Object.fromEntries(
        Object.entries(shape).map(([key, value]) => [key, validValue(value, key, pools)]),
      );
      return fc.record(fields, {
        requiredKeys: Object.keys(shape).filter(
          (key) => !isOptional(shape[key] as z.core.$ZodType),
        ),
      });
    }
    case 'string':
      return validString(inner, name, pools);
    case 'number':
    case 'int': {
      const min = bounds.min ?? 0;
      const max = bounds.max ?? min + 1000;
      const any = bounds.integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
      // A numeric id (a contract period) names one of the few configured rows.
      return isIdName(name)
        ? fc.oneof(fc.integer({ min: Math.max(min, 1), max: Math.max(min, 1) + 4 }), any)
        : any;
    }
    case 'bigint':
      return fc.bigInt({ min: 0n, max: 1000n }).map(String);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'union':
      return fc.oneof(
        ...(def.options as z.core.$ZodType[]).map((option) => validValue(option, name, pools)),
      );
    case 'array':
      return fc.array(validValue(def.element as z.core.$ZodType, name, pools), {
        minLength: bounds.minLength ?? 0,
        maxLength: Math.max(bounds.minLength ?? 0, 3),
      });
    case 'record':
      return fc.dictionary(
        validValue(def.keyType as z.core.$ZodType, 'key', pools) as fc.Arbitrary<string>,
        validValue(def.valueType as z.core.$ZodType, name, pools),
        { minKeys: 1, maxKeys: 3 },
      );
    case 'null':
      return fc.constant(null);
    default:
      return fc.string({ maxLength: 12 });
  }
}

/** Hostile values for one field, chosen from what its schema says it accepts. */
export function hostileValue(
  schema: z.core.$ZodType,
  name: string,
  pools: Pools,
  current?: unknown,
): fc.Arbitrary<{ kind: string; value: unknown }> {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const bounds = boundsOf(inner);
  type Choice = { arbitrary: fc.Arbitrary<{ kind: string; value: unknown }>; weight: number };
  const tagged = (kind: string, values: readonly unknown[], weight = 1): Choice[] =>
    values.length > 0
      ? [{ arbitrary: fc.constantFrom(...values).map((value) => ({ kind, value })), weight }]
      : [];
  const choices: Choice[] = [
    ...tagged('wrong type', wrongTypes(def.type)),
    ...tagged('missing', [undefined]),
    ...tagged('empty', ['', [], {}]),
    ...tagged('huge', [HUGE, `${'9'.repeat(50_000)}`]),
    ...tagged('unicode', UNICODE),
  ];
  if (def.type === 'string') {
    const lengths = [
      bounds.minLength !== undefined && bounds.minLength > 0 ? bounds.minLength - 1 : undefined,
      bounds.maxLength !== undefined ? bounds.maxLength + 1 : undefined,
    ];
    choices.push(
      ...tagged(
        'length bound',
        lengths.filter((n): n is number => n !== undefined).map((n) => '7'.repeat(n)),
      ),
    );
  }
  if (def.type === 'number' || def.type === 'int') {
    const edges = [
      bounds.min !== undefined ? bounds.min - 1 : undefined,
      bounds.max !== undefined ? bounds.max + 1 : undefined,
      0.5,
      -0,
      2 ** 53,
      1e308,
      -1e308,
    ];
    choices.push(
      ...tagged(
        'value bound',
        edges.filter((n) => n !== undefined),
      ),
    );
    choices.push(
      ...tagged('numeric text', ['1e3', '0x10', 'NaN', 'Infinity', `${bounds.max ?? 1}0`]),
    );
  }
  if (def.type === 'enum') {
    const values = Object.values(def.entries as Record<string, string>);
    choices.push(
      ...tagged('near enum', [
        `${values[0]} `,
        String(values[0]).toUpperCase(),
        'admin',
        '__proto__',
      ]),
    );
  }
  if (typeof current === 'string' && current.length > 0) {
    // Odd characters inside an otherwise valid value (an email, an id) get past format checks that a bare odd string fails.
    const inside = fc
      .tuple(fc.constantFrom(...UNICODE), fc.nat({ max: current.length }))
      .map(([odd, at]) => ({
        kind: 'unicode inside',
        value: `${current.slice(0, at)}${odd}${current.slice(at)}`,
      }));
    choices.push({ arbitrary: inside, weight: 3 });
  }
  if (isAmount(bounds)) choices.push(...tagged('bad amount', BAD_AMOUNTS, 3));
  if (isIdName(name))
    choices.push(...tagged('other user id', pools.ids, 3), ...tagged('bad id', BAD_IDS));
  if (name === 'account') choices.push(...tagged('other user account', pools.accounts, 2));
  return fc.oneof(...choices);
}

/** Paths to every leaf field, nested objects included (`title.en`). */
function leafPaths(
  schema: z.core.$ZodType,
  prefix: string[] = [],
): { path: string[]; schema: z.core.$ZodType }[] {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object') return prefix.length > 0 ? [{ path: prefix, schema }] : [];
  return Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([key, value]) =>
    leafPaths(value, [...prefix, key]),
  );
}

function valueAt(base: unknown, path: string[]): unknown {
  let node = base;
  for (const key of path)
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function withField(base: unknown, path: string[], value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  let node = root;
  for (const key of path.slice(0, -1)) {
    const child = node[key];
    node[key] =
      child && typeof child === 'object' && !Array.isArray(child)
        ? { ...(child as Record<string, unknown>) }
        : {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return root;
}

/** One request's input: a valid-looking value (1 in 5) or one with a single field made hostile. */
export function requestArbitrary(
  schema: z.core.$ZodType | undefined,
  pools: Pools,
): fc.Arbitrary<Generated> {
  if (!schema) return fc.constant({ value: undefined, mutation: 'no input' });
  const base = validValue(schema, '', pools) as fc.Arbitrary<Record<string, unknown>>;
  const valid = base.map((value) => ({ value, mutation: 'valid' }));
  const leaves = leafPaths(schema);
  if (leaves.length === 0) return valid;
  const mutated = fc.tuple(base, fc.constantFrom(...leaves)).chain(([value, leaf]) =>
    hostileValue(
      leaf.schema,
      leaf.path[leaf.path.length - 1] as string,
      pools,
      valueAt(value, leaf.path),
    ).map((hostile) => ({
      value: withField(value, leaf.path, hostile.value),
      mutation: `${leaf.path.join('.')} <- ${hostile.kind}`,
    })),
  );
  return fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: mutated, weight: 4 });
}

/** A GET's query string: strings as they are, arrays as repeated keys, anything else as JSON. */
export function queryString(value: Record<string, unknown> | undefined): string {
  if (!value) return '';
  const params = new URLSearchParams();
  for (const [key, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) && field.length > 0 ? field : [field])
      params.append(key, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
