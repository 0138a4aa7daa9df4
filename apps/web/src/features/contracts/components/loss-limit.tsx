import { type ContractConfig, contractSettingsRequestSchema } from '@tradewind/contract/instant';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { contractConfigQueryKey } from '@/api/query-keys.ts';
import { formatDecimal } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { showToast } from '@/ui/toast.ts';
import { saveContractSettings } from '../api/save-settings.ts';

/**
 * The user's own daily loss limit: losses and fees since 00:00 UTC (open orders counted as
 * lost). Orders that could go past it are refused by the server.
 */
export function LossLimit({ config }: { config: ContractConfig }) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const fmt = (value: string) => formatDecimal(value, i18n.language, 2);
  return (
    <section className="tw-card tw-loss-limit" aria-labelledby="loss-limit">
      <div className="tw-section-head">
        <h2 id="loss-limit">{t('contracts.loss_limit')}</h2>
        <button type="button" className="tw-link" onClick={() => setEditing(true)}>
          {config.dailyLossLimit === null
            ? t('contracts.loss_limit_set')
            : t('contracts.loss_limit_change')}
        </button>
      </div>
      <p className="tw-loss-limit-value" data-testid="loss-limit">
        {config.dailyLossLimit === null
          ? t('contracts.loss_limit_none')
          : t('contracts.loss_limit_used', {
              used: fmt(config.lossToday),
              limit: fmt(config.dailyLossLimit),
            })}
      </p>
      <Popup
        visible={editing}
        onMaskClick={() => setEditing(false)}
        onClose={() => setEditing(false)}
        destroyOnClose
        bodyClassName="tw-sheet"
        aria-label={t('contracts.loss_limit')}
      >
        <LossLimitForm config={config} onDone={() => setEditing(false)} />
      </Popup>
    </section>
  );
}

function LossLimitForm({ config, onDone }: { config: ContractConfig; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    contractSettingsRequestSchema,
    saveContractSettings,
    (next) => {
      queryClient.setQueryData(contractConfigQueryKey(i18n.language), next);
      showToast({ content: t('success.operation'), duration: 2000 });
      onDone();
    },
  );
  return (
    <div className="tw-order">
      <h2 className="tw-cd-h2">{t('contracts.loss_limit')}</h2>
      <p className="tw-muted tw-loss-limit-note">{t('contracts.loss_limit_note')}</p>
      <Form
        form={form}
        layout="vertical"
        className="tw-flat-form"
        initialValues={{ dailyLossLimit: config.dailyLossLimit ?? '' }}
        onFinish={(values: { dailyLossLimit?: string }) =>
          submit({ dailyLossLimit: values.dailyLossLimit?.trim() ?? '' })
        }
        onValuesChange={clearEdited}
        footer={
          <Button block type="submit" color="primary" size="large" loading={submitting}>
            {t('contracts.loss_limit_save')}
          </Button>
        }
      >
        <Form.Item name="dailyLossLimit" label={t('contracts.loss_limit_amount')}>
          <Input
            inputMode="decimal"
            placeholder={t('contracts.loss_limit_placeholder')}
            aria-label={t('contracts.loss_limit_amount')}
            clearable
          />
        </Form.Item>
      </Form>
      {config.dailyLossLimit !== null && (
        <Button
          block
          fill="none"
          color="danger"
          disabled={submitting}
          onClick={() => void submit({ dailyLossLimit: null })}
        >
          {t('contracts.loss_limit_remove')}
        </Button>
      )}
    </div>
  );
}
