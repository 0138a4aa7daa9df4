/**
 * PostgreSQL array literals for `postManyResolved`'s posting columns, written here instead of
 * by the driver: a settlement batch carries thousands of postings, and the driver quotes and
 * escapes every element of every array, which was most of the batch's JavaScript time. These
 * columns hold only integers and short codes, so a literal is built as the postings are read,
 * with no array in between; each distinct code is checked once, and anything else is refused
 * (a bug in the caller, never user input).
 */

/** `{1,2,NULL}`, from safe integer numbers, bigints and nulls. */
export class IntegerArrayLiteral {
  private text = '';
  private count = 0;

  push(value: number | bigint | null): void {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`not an integer for an array literal: ${value}`);
    this.text += `${this.count++ > 0 ? ',' : ''}${value === null ? 'NULL' : String(value)}`;
  }

  get length(): number {
    return this.count;
  }

  toString(): string {
    return `{${this.text}}`;
  }
}

const CODE = /^[A-Za-z0-9_]+$/;

/** `{"USDT","futures",NULL}`, from codes (letters, digits, underscores), each quoted so that a code like NULL stays text. */
export class CodeArrayLiteral {
  private text = '';
  private count = 0;
  private readonly checked = new Set<string>();

  push(value: string | null): void {
    if (value !== null && !this.checked.has(value)) {
      if (!CODE.test(value)) throw new Error(`not a code for an array literal: ${JSON.stringify(value)}`);
      this.checked.add(value);
    }
    this.text += `${this.count++ > 0 ? ',' : ''}${value === null ? 'NULL' : `"${value}"`}`;
  }

  toString(): string {
    return `{${this.text}}`;
  }
}
