export type Params = Record<
  string,
  string | number | boolean | null | undefined | readonly (string | number | boolean)[]
>;

/** A query string (`?a=1&b=2`, or '' when empty); arrays become repeated keys (`a=1&a=2`), not indexed ones. */
export function serializeParams(params: Params | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
