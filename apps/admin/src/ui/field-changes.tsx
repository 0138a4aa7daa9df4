import { Button, Typography } from 'antd';
import { useState } from 'react';
import { defineStrings } from '@/lib/i18n.ts';
import type { FieldChange } from './field-diff.ts';

const useT = defineStrings({
  en: {
    field: 'Field',
    before: 'Before',
    after: 'After',
    absent: 'none',
    none: 'No fields recorded.',
    showSame: 'Show {n} unchanged fields',
    hideSame: 'Hide unchanged fields',
  },
  'zh-CN': {
    field: '字段',
    before: '之前',
    after: '之后',
    absent: '无',
    none: '未记录字段。',
    showSame: '显示 {n} 个未变字段',
    hideSame: '隐藏未变字段',
  },
});

const cell = {
  padding: '2px 8px',
  verticalAlign: 'top',
  overflowWrap: 'anywhere',
  fontVariantNumeric: 'tabular-nums',
} as const;

function Value({ value, asset, testId }: { value?: string; asset?: string; testId: string }) {
  const t = useT();
  if (value === undefined)
    return (
      <Typography.Text type="secondary" italic data-testid={testId}>
        {t('absent')}
      </Typography.Text>
    );
  return (
    <span data-testid={testId}>
      {value}
      {asset ? ` ${asset}` : ''}
    </span>
  );
}

/** Up to this many unchanged fields are shown (dimmed) at once; more wait behind a link. */
const SAME_SHOWN = 6;

/**
 * A small table of what an action changed: field, before, after. Changed fields come first in
 * full; unchanged ones follow, dimmed, so the eye lands on the change (a long list of them is
 * folded behind a link).
 */
export function FieldChanges({ changes }: { changes: FieldChange[] }) {
  const t = useT();
  const changed = changes.filter((change) => change.changed);
  const same = changes.filter((change) => !change.changed);
  const [showSame, setShowSame] = useState(same.length <= SAME_SHOWN || changed.length === 0);
  if (changes.length === 0) return <Typography.Text type="secondary">{t('none')}</Typography.Text>;
  const rows = showSame ? [...changed, ...same] : changed;
  return (
    <>
      <table
        style={{ width: '100%', borderCollapse: 'collapse', fontSize: 12, tableLayout: 'fixed' }}
        data-testid="audit-changes"
      >
        <colgroup>
          <col style={{ width: '34%' }} />
          <col style={{ width: '33%' }} />
          <col style={{ width: '33%' }} />
        </colgroup>
        <thead>
          <tr style={{ color: '#888', textAlign: 'left' }}>
            <th style={{ ...cell, fontWeight: 500 }}>{t('field')}</th>
            <th style={{ ...cell, fontWeight: 500 }}>{t('before')}</th>
            <th style={{ ...cell, fontWeight: 500 }}>{t('after')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((change) => (
            <tr
              key={change.path}
              style={{
                borderTop: '1px solid #f0f0f0',
                ...(change.changed ? {} : { color: '#8c8c8c' }),
              }}
              data-testid={`audit-change-${change.path}`}
              data-changed={change.changed}
            >
              <td style={{ ...cell, fontFamily: 'monospace' }}>{change.path}</td>
              <td style={{ ...cell, ...(change.changed ? { color: '#a8071a' } : {}) }}>
                <Value value={change.before} asset={change.asset} testId="before" />
              </td>
              <td style={{ ...cell, ...(change.changed ? { color: '#135200' } : {}) }}>
                <Value value={change.after} asset={change.asset} testId="after" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {same.length > SAME_SHOWN && changed.length > 0 ? (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          onClick={() => setShowSame(!showSame)}
        >
          {showSame ? t('hideSame') : t('showSame', { n: same.length })}
        </Button>
      ) : null}
    </>
  );
}
