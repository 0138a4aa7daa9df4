import type { z } from 'zod/mini';

export type MessageParams = Record<string, string | number>;

/**
 * The i18n key (and parameters) for a zod issue. A schema's own message is used when
 * it is a `validation.*` key; otherwise the key follows from the issue's kind.
 * `input` is what was validated, so a missing value says "required" and a value of the
 * wrong type says so.
 */
export function issueMessageKey(
  issue: z.core.$ZodIssue,
  input: unknown,
): { key: string; params: MessageParams } {
  const params: MessageParams = {};
  if ('minimum' in issue) params.minimum = Number(issue.minimum);
  if ('maximum' in issue) params.maximum = Number(issue.maximum);
  if (issue.code === 'invalid_type') {
    return {
      key:
        valueAt(input, issue.path) === undefined
          ? 'validation.required'
          : 'validation.invalid_type',
      params,
    };
  }
  if (issue.message.startsWith('validation.')) return { key: issue.message, params };
  switch (issue.code) {
    case 'too_small':
      return {
        key: issue.origin === 'string' ? 'validation.too_short' : 'validation.too_small',
        params,
      };
    case 'too_big':
      return {
        key: issue.origin === 'string' ? 'validation.too_long' : 'validation.too_big',
        params,
      };
    case 'invalid_format':
      return { key: 'validation.invalid_format', params };
    case 'unrecognized_keys':
      return { key: 'validation.unknown_field', params };
    default:
      return { key: 'validation.invalid_value', params };
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** The field an issue belongs to: its path joined with dots, or `_root` for the whole body. */
export const ROOT_FIELD = '_root';

/** Field → translated messages, the shape of the envelope's `errors`. */
export function issuesToFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  translate: (key: string, params: MessageParams) => string,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const issue of issues.slice(0, 50)) {
    const { key, params } = issueMessageKey(issue, input);
    const message = translate(key, params);
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const name of issue.keys.slice(0, 20))
        add(base ? `${base}.${name}` : name.slice(0, 64), message);
    } else {
      add(base || ROOT_FIELD, message);
    }
  }
  return errors;
}
