/** True when a query failed on a unique constraint (drizzle wraps the driver's error in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (code === '23505') {
      return constraint === undefined || (e as { constraint?: string }).constraint === constraint;
    }
  }
  return false;
}
