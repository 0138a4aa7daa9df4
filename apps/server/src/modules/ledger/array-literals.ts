/**
 * PostgreSQL array literals for `postManyResolved`'s posting columns, written here instead of
 * by the driver: a settlement batch carries thousands of postings, and the driver quotes and
 * escapes every element of every array, which was most of the batch's JavaScript time. These
 * columns hold only integers and short codes, so a literal is a join; each distinct code is
 * checked once, and anything else is refused (a bug in the caller, never user input).
 */

/** `{1,-2,3}`, from safe integer numbers and bigints. */
export function integerArray(values: readonly (number | bigint)[]): string {
  for (const value of values) {
    if (typeof value !== 'bigint' && !Number.isSafeInteger(value))
      throw new Error(`not an integer for an array literal: ${value}`);
  }
  return `{${values.join(',')}}`;
}

const CODE = /^[A-Za-z0-9_]+$/;

/** `{"available","position_fee"}`, from codes (letters, digits, underscores), each quoted so that a code like NULL stays text. */
export function codeArray(values: readonly string[]): string {
  for (const value of new Set(values)) {
    if (!CODE.test(value))
      throw new Error(`not a code for an array literal: ${JSON.stringify(value)}`);
  }
  return values.length === 0 ? '{}' : `{"${values.join('","')}"}`;
}
