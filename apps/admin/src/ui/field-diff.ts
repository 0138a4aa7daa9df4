/**
 * What an audited action changed, field by field: the before and after the server keeps as JSON
 * text, flattened to dotted paths (`card.holderName`, `items[0].price`) and paired up. Plain data,
 * no React, so the console's unit tests check it directly.
 */
export interface FieldChange {
  /** Dotted path; `(value)` when the whole side is a single value, not an object. */
  path: string;
  /** Undefined when the field is absent on that side (added or removed). */
  before: string | undefined;
  after: string | undefined;
  changed: boolean;
  /** The asset an amount is in, when the field is an amount and the entry says which asset. */
  asset?: string;
}

/** Whole value when a side is not an object: a string, a number, or text that is not JSON. */
export const VALUE_PATH = '(value)';

/** Nesting deeper than this is shown as JSON in one cell; audit entries are shallow in practice. */
const MAX_DEPTH = 6;

function parse(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function leaf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Dotted paths to leaf values, in the order the object lists them. */
export function flatten(value: unknown, prefix = '', depth = 0, into = new Map<string, string>()) {
  const nested =
    (isRecord(value) && Object.keys(value).length > 0) ||
    (Array.isArray(value) && value.length > 0);
  if (!nested || depth >= MAX_DEPTH) {
    into.set(prefix === '' ? VALUE_PATH : prefix, leaf(value));
    return into;
  }
  if (Array.isArray(value))
    value.forEach((item, index) => flatten(item, `${prefix}[${index}]`, depth + 1, into));
  else
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      flatten(item, prefix === '' ? key : `${prefix}.${key}`, depth + 1, into);
  return into;
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
/** Names of amount fields across the audited modules; rates, counts, ids and days are not amounts. */
const MONEY_NAME =
  /(amount|fee|total|credited|debited|refund|paid|committed|principal|interest|stake|payout|balance|budget|price|yield|profit|threshold)$/i;
const NOT_MONEY = /(rate|bps|count|days|percent|ms|limit|redemptions|quantity|supply)$/i;
const ID = /(^id|Id|_id)$/;

function lastSegment(path: string): string {
  const dot = path.lastIndexOf('.');
  return (dot < 0 ? path : path.slice(dot + 1)).replace(/\[\d+\]$/, '');
}

function parentOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

/**
 * The changes between two audited sides. Every field of either side is listed once, in the order
 * the sides list them (before's first); `changed` tells which differ. The services record in
 * `after` what an action set, and in `before` also the context they checked (the user, the
 * amounts): a field only in `before`, when there is an `after`, was left as it was. An amount
 * field carries the asset named beside it (`asset` in the same object, or at the top), else
 * `defaultAsset`.
 */
export function diffFields(
  beforeText: string | null,
  afterText: string | null,
  defaultAsset?: string,
): FieldChange[] {
  const before = beforeText === null ? new Map<string, string>() : flatten(parse(beforeText));
  const after = afterText === null ? new Map<string, string>() : flatten(parse(afterText));
  const assetAt = (parent: string) => {
    const key = parent === '' ? 'asset' : `${parent}.asset`;
    return after.get(key) ?? before.get(key);
  };
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  return paths.map((path) => {
    const was = before.get(path);
    const now = afterText !== null && !after.has(path) ? was : after.get(path);
    const name = lastSegment(path);
    const money =
      MONEY_NAME.test(name) &&
      !NOT_MONEY.test(name) &&
      !ID.test(name) &&
      [was, now].some((value) => value !== undefined && DECIMAL.test(value));
    const asset = money ? (assetAt(parentOf(path)) ?? assetAt('') ?? defaultAsset) : undefined;
    return {
      path,
      before: was,
      after: now,
      changed: was !== now,
      ...(asset !== undefined ? { asset } : {}),
    };
  });
}
