/**
 * `zod` for the web build (the alias in vite.config.ts): zod/mini (about 10 KB gzipped on a
 * first screen instead of classic's 20) with the classic methods the shared schemas chain
 * (`.min()`, `.optional()`, `.refine()`, …) put back on its schema classes, each the mini
 * function classic itself calls. The contract's tests run against this module too
 * (`contract-on-mini` in vitest.config.ts), so a method it lacks fails there, not in a browser.
 */
import * as mini from 'zod/mini';
import {
  ZodMiniAny,
  ZodMiniArray,
  ZodMiniBigInt,
  ZodMiniBoolean,
  ZodMiniCatch,
  ZodMiniCustom,
  ZodMiniDefault,
  ZodMiniDiscriminatedUnion,
  ZodMiniEmail,
  ZodMiniEnum,
  ZodMiniISODate,
  ZodMiniISODateTime,
  ZodMiniISOTime,
  ZodMiniLiteral,
  ZodMiniNever,
  ZodMiniNull,
  ZodMiniNullable,
  ZodMiniNumber,
  ZodMiniNumberFormat,
  ZodMiniObject,
  ZodMiniOptional,
  ZodMiniPipe,
  ZodMiniRecord,
  ZodMiniString,
  ZodMiniStringFormat,
  ZodMiniTransform,
  ZodMiniUnion,
  ZodMiniUnknown,
  ZodMiniURL,
  ZodMiniUUID,
} from 'zod/mini';

export * from 'zod/mini';
export * as z from 'zod/mini';

const numeric = (schema) => schema._zod.def.type === 'number' || schema._zod.def.type === 'bigint';

/** Classic's chainable methods, as classic defines them (`zod/v4/classic/schemas.js`), on mini's building blocks. */
const METHODS = {
  min(value, params) {
    return this.check(numeric(this) ? mini.gte(value, params) : mini.minLength(value, params));
  },
  max(value, params) {
    return this.check(numeric(this) ? mini.lte(value, params) : mini.maxLength(value, params));
  },
  length(value, params) {
    return this.check(mini.length(value, params));
  },
  gt(value, params) {
    return this.check(mini.gt(value, params));
  },
  gte(value, params) {
    return this.check(mini.gte(value, params));
  },
  lt(value, params) {
    return this.check(mini.lt(value, params));
  },
  lte(value, params) {
    return this.check(mini.lte(value, params));
  },
  positive(params) {
    return this.check(mini.gt(0, params));
  },
  nonnegative(params) {
    return this.check(mini.gte(0, params));
  },
  negative(params) {
    return this.check(mini.lt(0, params));
  },
  nonpositive(params) {
    return this.check(mini.lte(0, params));
  },
  multipleOf(value, params) {
    return this.check(mini.multipleOf(value, params));
  },
  int(params) {
    return this.check(mini.int(params));
  },
  regex(pattern, params) {
    return this.check(mini.regex(pattern, params));
  },
  includes(value, params) {
    return this.check(mini.includes(value, params));
  },
  startsWith(value, params) {
    return this.check(mini.startsWith(value, params));
  },
  endsWith(value, params) {
    return this.check(mini.endsWith(value, params));
  },
  trim() {
    return this.check(mini.trim());
  },
  toLowerCase() {
    return this.check(mini.toLowerCase());
  },
  toUpperCase() {
    return this.check(mini.toUpperCase());
  },
  normalize(form) {
    return this.check(mini.normalize(form));
  },
  nonempty(params) {
    return this.check(mini.minLength(1, params));
  },
  refine(check, params) {
    return this.check(mini.refine(check, params));
  },
  superRefine(refinement) {
    return this.check(mini.superRefine(refinement));
  },
  optional() {
    return mini.optional(this);
  },
  nullable() {
    return mini.nullable(this);
  },
  nullish() {
    return mini.optional(mini.nullable(this));
  },
  default(value) {
    return mini._default(this, value);
  },
  catch(value) {
    return mini.catch(this, value);
  },
  transform(transform) {
    return mini.pipe(this, mini.transform(transform));
  },
  pipe(target) {
    return mini.pipe(this, target);
  },
  array() {
    return mini.array(this);
  },
  or(other) {
    return mini.union([this, other]);
  },
  extend(shape) {
    return mini.extend(this, shape);
  },
  omit(mask) {
    return mini.omit(this, mask);
  },
  pick(mask) {
    return mini.pick(this, mask);
  },
  partial(mask) {
    return mini.partial(this, mask);
  },
  strict() {
    return this.clone({ ...this._zod.def, catchall: mini.never() });
  },
  catchall(schema) {
    return this.clone({ ...this._zod.def, catchall: schema });
  },
  describe(description) {
    return this.register(mini.globalRegistry, { description });
  },
};

/**
 * The schema classes the shared schemas are built from. Each zod class has its own prototype
 * (no chain between them), so each is listed: named, so the build keeps only these; a test
 * walks every schema the contract exports, under this module, and fails on one left out.
 */
const CLASSES = [
  ZodMiniAny, ZodMiniArray, ZodMiniBigInt, ZodMiniBoolean, ZodMiniCatch, ZodMiniCustom, ZodMiniDefault, ZodMiniDiscriminatedUnion,
  ZodMiniEmail, ZodMiniEnum, ZodMiniISODate, ZodMiniISODateTime, ZodMiniISOTime, ZodMiniLiteral, ZodMiniNever, ZodMiniNull,
  ZodMiniNullable, ZodMiniNumber, ZodMiniNumberFormat, ZodMiniObject, ZodMiniOptional, ZodMiniPipe, ZodMiniRecord, ZodMiniString,
  ZodMiniStringFormat, ZodMiniTransform, ZodMiniUnion, ZodMiniUnknown, ZodMiniURL, ZodMiniUUID,
];

for (const Class of CLASSES) {
  for (const [method, fn] of Object.entries(METHODS)) {
    if (!(method in Class.prototype)) Object.defineProperty(Class.prototype, method, { value: fn, writable: true, configurable: true });
  }
}
