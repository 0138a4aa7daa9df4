import { ApiError } from '@tradewind/http-client/api-error';
import type { FormInstance } from 'antd';

/** A failure in one line: the first field message, else the server's message, else the error itself. */
export const errorText = (error: unknown): string =>
  error instanceof ApiError ? error.detail : String(error);

/** Puts a 422's per-field messages on the form's fields (nested names are dotted); false when it had none. */
export function showFieldErrors(form: FormInstance, error: unknown): boolean {
  if (!(error instanceof ApiError) || !error.errors) return false;
  form.setFields(
    Object.entries(error.errors).map(([name, errors]) => ({ name: name.split('.'), errors })),
  );
  return true;
}
