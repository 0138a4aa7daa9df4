import 'antd-mobile/es/components/list/list.css';
import 'antd-mobile/es/components/form/index.css';
import {
  type FormEvent,
  type ReactElement,
  type ReactNode,
  cloneElement,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { FieldsForm } from '@/lib/submit.ts';

/**
 * antd-mobile's Form with `layout="vertical"`, its markup and styles, for the sign-in page: the
 * first screen, where antd-mobile's Form (rc-field-form and its helpers, 18 KB gzipped) was the
 * largest part after React. Fields hold strings; their messages come from the shared submit
 * flow (lib/submit.ts), as on every other form.
 */
export interface LightForm extends FieldsForm {
  getFieldsValue(): Record<string, string>;
  /** Empties the named fields and their messages (a field whose format changed). */
  resetFields(names: string[]): void;
  value(name: string): string;
  errors(name: string): string[];
  change(name: string, value: string): void;
}

export function useLightForm(
  names: readonly string[],
  onValuesChange?: (changed: Record<string, string>) => void,
): LightForm {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(names.map((name) => [name, ''])),
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  // The submit flow reads the values right after a change, before React renders again.
  const latest = useRef(values);
  const onChange = useRef(onValuesChange);
  useEffect(() => {
    onChange.current = onValuesChange;
  });
  return useMemo<LightForm>(() => {
    const put = (changed: Record<string, string>) => {
      latest.current = { ...latest.current, ...changed };
      setValues(latest.current);
      // An edited field's old message goes away, as on every form (`clearEdited`).
      setErrors((shown) => ({
        ...shown,
        ...Object.fromEntries(Object.keys(changed).map((name) => [name, []])),
      }));
    };
    return {
      getFieldsValue: () => ({ ...latest.current }),
      setFields: (fields) =>
        setErrors((shown) => ({
          ...shown,
          ...Object.fromEntries(fields.map((field) => [field.name, field.errors])),
        })),
      resetFields: (reset) => put(Object.fromEntries(reset.map((name) => [name, '']))),
      // The latest value, not this render's: a submit right after the caught-up values of a
      // prerendered form went in (before the render that shows them) reads them too.
      value: (name) => latest.current[name] ?? '',
      errors: (name) => errors[name] ?? [],
      change: (name, value) => {
        put({ [name]: value });
        onChange.current?.({ [name]: value });
      },
    };
    // A new object when the values change (though `value` reads the ref), so the fields render again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [values, errors]);
}

/**
 * The form. Prerendered (the sign-in page, scripts/prerender.ts), it is on screen before the
 * app runs: what the user typed or the browser autofilled by then is in the inputs, not in the
 * form's state, and a submit meanwhile is held by the page's boot script (marked
 * `data-pending-submit`). Once the app has taken the form over, both are caught up: the inputs'
 * values go into the state, and a held submit is made again.
 */
export function LightFormView({
  form,
  onFinish,
  footer,
  children,
}: {
  form: LightForm;
  onFinish: () => void;
  footer: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLFormElement>(null);
  const replay = useRef(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onFinish();
  };
  // Declared first, so it runs after the render that brought the caught-up values (and
  // `onFinish` reads them), not in the same pass as the effect below.
  useEffect(() => {
    if (!replay.current) return;
    replay.current = false;
    ref.current?.requestSubmit();
  });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const known = form.getFieldsValue();
    let changed = false;
    for (const input of element.querySelectorAll<HTMLInputElement>('input[id]')) {
      if (!(input.id in known) || input.value === known[input.id]) continue;
      form.change(input.id, input.value);
      changed = true;
    }
    element.dataset.ready = '';
    if (element.dataset.pendingSubmit === undefined) return;
    delete element.dataset.pendingSubmit;
    if (changed) replay.current = true;
    else element.requestSubmit();
    // Once, when the form first appears: later, the inputs and the state move together.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <form ref={ref} className="adm-form" onSubmit={submit} noValidate>
      <div className="adm-list adm-list-default">
        <div className="adm-list-body">
          <div className="adm-list-body-inner">{children}</div>
        </div>
      </div>
      <div className="adm-form-footer">{footer}</div>
    </form>
  );
}

interface FieldControl {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
}

/** One vertical `Form.Item`: the label for the control, the control (given `id`, `value`, `onChange`), the description and the messages. */
export function LightField({
  form,
  name,
  label,
  description,
  children,
}: {
  form: LightForm;
  name: string;
  label: ReactNode;
  description?: ReactNode;
  children: ReactElement<FieldControl>;
}) {
  const errors = form.errors(name);
  return (
    <div
      className={`adm-list-item adm-form-item adm-form-item-vertical${errors.length ? ' adm-form-item-has-error' : ''}`}
    >
      <div className="adm-list-item-content">
        <div className="adm-list-item-content-main">
          <div className="adm-list-item-title">
            <label className="adm-form-item-label" htmlFor={name}>
              {label}
            </label>
          </div>
          <div className="adm-form-item-child adm-form-item-child-position-normal">
            <div className="adm-form-item-child-inner">
              {cloneElement(children, {
                id: name,
                value: form.value(name),
                onChange: (value: string) => form.change(name, value),
              })}
            </div>
          </div>
          <div className="adm-list-item-description">
            {description}
            {errors.map((error, i) => (
              <div key={i} className="adm-form-item-feedback-error">
                {error}
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
