import type { FieldErrors } from '@tradewind/contract/envelope';
import { ROOT_FIELD, issuesToFieldErrors } from '@tradewind/contract/validation';
import { useState } from 'react';
import type { z } from 'zod/mini';
import { ApiError } from '@tradewind/http-client/api-error';
import { type TFunction, useTranslation } from '@/lib/i18n.ts';
import { showToast } from '@/ui/toast.ts';

/**
 * What the submit flow needs of a form: antd-mobile's `FormInstance` (lib/forms.ts) or the
 * sign-in page's light form (ui/light-form.tsx).
 */
export interface FieldsForm {
  /** Every mounted field and its value. */
  getFieldsValue(): object;
  setFields(fields: { name: string; errors: string[] }[]): void;
}

/** Validates with the shared schema: the same rules and messages as the server. */
export function validateWith<S extends z.ZodMiniType>(
  schema: S,
  values: unknown,
  t: TFunction,
): { data: z.output<S>; errors?: undefined } | { data?: undefined; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data };
  return {
    errors: issuesToFieldErrors(result.error.issues, values, (key, params) => t(key, params)),
  };
}

/** Puts messages under their fields; any left over (or for the whole form) are toasted. */
export function showFieldErrors(form: FieldsForm, errors: FieldErrors): void {
  // Every mounted field, touched or not.
  const known = new Set(Object.keys(form.getFieldsValue()));
  const onFields = Object.entries(errors).filter(([field]) => known.has(field));
  form.setFields(onFields.map(([name, messages]) => ({ name, errors: messages })));
  const rest = Object.entries(errors).filter(
    ([field]) => !known.has(field) || field === ROOT_FIELD,
  );
  const first = rest[0]?.[1][0];
  if (first) showToast({ content: first, duration: 2000 });
}

/** A 422 from the server goes to the form; other errors were already toasted by the client. */
export function handleSubmitError(form: FieldsForm, error: unknown): void {
  if (error instanceof ApiError && error.isValidation && error.errors)
    showFieldErrors(form, error.errors);
}

export function clearFieldErrors(form: FieldsForm): void {
  const names = Object.keys(form.getFieldsValue());
  form.setFields(names.map((name) => ({ name, errors: [] })));
}

/**
 * The shared schema, or a function that loads it: a page whose rules are heavy (the sign-in
 * page's need the phone-number metadata) fetches them after it shows, at the latest on submit.
 */
export type SchemaSource<S extends z.ZodMiniType> = S | (() => Promise<S>);

/**
 * The submit flow every form shares: validate with the shared schema (messages under the
 * fields), send, and put a server 422 back on the fields; other errors were toasted.
 */
export function useSubmit<S extends z.ZodMiniType, R>(
  form: FieldsForm,
  schema: SchemaSource<S>,
  send: (data: z.output<S>) => Promise<R>,
  onDone: (result: R) => void,
) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const submit = async (request: unknown) => {
    clearFieldErrors(form);
    let rules: S;
    try {
      rules = typeof schema === 'function' ? await schema() : schema;
    } catch {
      // The rules' chunk did not download (offline before it was cached): say so, send nothing.
      return showFieldErrors(form, { [ROOT_FIELD]: [t('common.network_error')] });
    }
    const checked = validateWith(rules, request, t);
    if (checked.errors) return showFieldErrors(form, checked.errors);
    setSubmitting(true);
    try {
      onDone(await send(checked.data));
    } catch (error) {
      handleSubmitError(form, error);
    } finally {
      setSubmitting(false);
    }
  };
  /** Pass as the form's `onValuesChange`: a field's message goes away once it is edited. */
  const clearEdited = (changed: Record<string, unknown>) =>
    form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })));
  return { submitting, submit, clearEdited };
}
