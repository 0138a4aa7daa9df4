import { Form } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import type { z } from 'zod/mini';
import { type SchemaSource, useSubmit } from './submit.ts';

export { showFieldErrors } from './submit.ts';

/** The shared submit flow (lib/submit.ts) on an antd-mobile Form of its own. */
export function useFormSubmit<S extends z.ZodMiniType, R>(
  schema: SchemaSource<S>,
  send: (data: z.output<S>) => Promise<R>,
  onDone: (result: R) => void,
) {
  const [form] = Form.useForm();
  return { form, ...useSubmit(form, schema, send, onDone) };
}

/** `onValuesChange` for a form: a field's old message goes away as soon as the user edits it. */
export function clearErrorsOnChange(form: FormInstance) {
  return (changed: Record<string, unknown>) =>
    form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })));
}
