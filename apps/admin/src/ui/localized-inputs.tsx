import { Form, Input } from 'antd';

/** Stored product texts: English required, other languages optional. */
export type LocalizedText = { en: string } & Partial<Record<string, string | undefined>>;

/**
 * English and Simplified Chinese inputs for a stored localized text (`name.en`, `name.zh_CN`).
 * The other languages the text has are kept as they are by `mergeLocalized`.
 */
export function LocalizedInputs(props: {
  name: string;
  label: string;
  max: number;
  rows?: number;
  requiredText: string;
  testId?: string;
}) {
  const rules = (required: boolean) => [
    {
      required,
      whitespace: required,
      max: props.max,
      pattern: /^[^<>]*$/s,
      message: props.requiredText,
    },
  ];
  const Field = props.rows ? Input.TextArea : Input;
  return (
    <>
      <Form.Item name={[props.name, 'en']} label={`${props.label} (English)`} rules={rules(true)}>
        <Field
          {...(props.rows ? { rows: props.rows } : {})}
          data-testid={props.testId ? `${props.testId}-en` : undefined}
        />
      </Form.Item>
      <Form.Item
        name={[props.name, 'zh_CN']}
        label={`${props.label} (简体中文)`}
        rules={rules(false)}
      >
        <Field
          {...(props.rows ? { rows: props.rows } : {})}
          data-testid={props.testId ? `${props.testId}-zh` : undefined}
        />
      </Form.Item>
    </>
  );
}

/** The edited languages over what was stored; an emptied language is dropped (English stands in). */
export function mergeLocalized(
  stored: LocalizedText | undefined,
  edited: LocalizedText,
): LocalizedText {
  const merged: Record<string, string> = {};
  for (const [lang, text] of Object.entries({ ...stored, ...edited }))
    if (typeof text === 'string' && text.trim()) merged[lang] = text.trim();
  return merged as LocalizedText;
}
