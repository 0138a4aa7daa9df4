import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, Form, Input, List, Skeleton, Tag } from 'antd-mobile';
import { ExclamationCircleFill, FileOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { devChainTransferRequestSchema } from '@tradewind/contract/deposit';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { useFormSubmit } from '@/lib/forms.ts';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { useDepositAddress } from './api/get-deposit-address.ts';
import { depositHistoryQueryKey } from './api/get-deposit-history.ts';
import { simulateDeposit } from './api/simulate-deposit.ts';
import { AddressQr } from './components/address-qr.tsx';

/** TRON makes a block every 3 s. */
const BLOCK_SECONDS = 3;
/** What the demo control offers to send. */
const DEMO_AMOUNT = '100';

/** spec §2 /Recharge: the user's USDT-TRC20 address, its QR code, and the rules of a deposit. */
export function RechargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const address = useDepositAddress();
  const info = address.data;

  const copy = async () => {
    if (!info) return;
    await navigator.clipboard?.writeText(info.address).catch(() => undefined);
    showToast({ content: t('success.copied'), duration: 2000 });
  };

  const historyLink = (
    <button
      type="button"
      className="tw-link"
      onClick={() => navigate('/RechargeHistory')}
      aria-label={t('deposit.history')}
      style={{ fontSize: 22, display: 'flex' }}
    >
      <UnorderedListOutline />
    </button>
  );

  return (
    <Page title={t('routes.Recharge')} backTo="/" right={historyLink}>
      {address.isError ? (
        <ErrorBlock
          status="default"
          title={address.error.message}
          description={null}
          style={{ '--image-height': '120px', paddingTop: 32 }}
        >
          <Button color="primary" fill="outline" onClick={() => void address.refetch()}>
            {t('deposit.load_failed')}
          </Button>
        </ErrorBlock>
      ) : !info ? (
        <div className="tw-card" aria-busy="true" aria-label={t('deposit.loading')}>
          <Skeleton.Title animated />
          <Skeleton
            animated
            style={{ width: 184, height: 184, margin: '12px auto', borderRadius: 8 }}
          />
          <Skeleton.Paragraph lineCount={3} animated />
        </div>
      ) : (
        <>
          <section className="tw-card" aria-labelledby="deposit-address-title">
            <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12 }}>
              <strong style={{ fontSize: 18 }}>{info.asset}</strong>
              <Tag color="primary" fill="outline" style={{ fontSize: 12 }}>
                {t('deposit.network_badge')}
              </Tag>
              {info.simulated && <span className="tw-demo-badge">{t('common.demo')}</span>}
            </div>
            {info.simulated && (
              <p
                role="note"
                style={{
                  margin: '0 0 12px',
                  padding: '8px 10px',
                  borderRadius: 8,
                  background: 'var(--tw-warning-bg)',
                  color: 'var(--tw-warning-text)',
                  fontSize: 13,
                }}
              >
                {t('deposit.demo_address')}
              </p>
            )}
            <div style={{ display: 'flex', justifyContent: 'center', padding: '4px 0 12px' }}>
              <AddressQr value={info.address} label={t('deposit.qr_label')} />
            </div>
            <h2
              id="deposit-address-title"
              className="tw-muted"
              style={{ fontSize: 13, fontWeight: 400, margin: '0 0 4px' }}
            >
              {t('deposit.address_label')}
            </h2>
            <p
              data-testid="deposit-address"
              style={{
                margin: '0 0 12px',
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
                fontSize: 15,
                overflowWrap: 'anywhere',
                lineHeight: 1.5,
              }}
            >
              {info.address}
            </p>
            <Button block color="primary" onClick={copy} data-testid="deposit-copy">
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                <FileOutline aria-hidden /> {t('deposit.copy')}
              </span>
            </Button>
          </section>

          <section className="tw-card" style={{ fontSize: 14, lineHeight: 1.55 }}>
            <p
              role="alert"
              style={{
                display: 'flex',
                gap: 8,
                margin: '0 0 10px',
                color: 'var(--tw-down)',
                fontWeight: 500,
              }}
            >
              <ExclamationCircleFill aria-hidden style={{ flex: 'none', marginTop: 3 }} />
              <span>{t('deposit.warning')}</span>
            </p>
            <ul style={{ margin: 0, paddingLeft: 20, color: 'var(--tw-muted)' }}>
              <li>{t('deposit.min_deposit', { amount: info.minDeposit })}</li>
              <li>
                {t('deposit.confirmations', {
                  count: info.confirmations,
                  minutes: Math.max(1, Math.ceil((info.confirmations * BLOCK_SECONDS) / 60)),
                })}
              </li>
            </ul>
          </section>

          {info.simulated && (
            <SimulateDeposit address={info.address} confirmations={info.confirmations} />
          )}

          <List
            style={{
              borderRadius: 12,
              overflow: 'hidden',
              '--border-top': 'none',
              '--border-bottom': 'none',
            }}
          >
            <List.Item
              prefix={<UnorderedListOutline />}
              onClick={() => navigate('/RechargeHistory')}
            >
              {t('deposit.history')}
            </List.Item>
          </List>
        </>
      )}
    </Page>
  );
}

/** Demo mode only: sends USDT to the user's own address on the simulated chain. */
function SimulateDeposit({ address, confirmations }: { address: string; confirmations: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { form, submitting, submit } = useFormSubmit(
    devChainTransferRequestSchema,
    simulateDeposit,
    () => {
      showToast({ content: t('deposit.simulate_sent', { count: confirmations }), duration: 2000 });
      void queryClient.invalidateQueries({ queryKey: depositHistoryQueryKey });
    },
  );
  return (
    <section
      className="tw-card"
      aria-labelledby="deposit-simulate-title"
      style={{ border: '1px dashed var(--tw-reward-border)' }}
    >
      <h2 id="deposit-simulate-title" style={{ fontSize: 16, margin: '0 0 4px' }}>
        {t('deposit.simulate_title')}
      </h2>
      <p className="tw-muted" style={{ margin: '0 0 4px' }}>
        {t('deposit.simulate_note')}
      </p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ amount: DEMO_AMOUNT }}
        onFinish={(values: { amount?: string }) => submit({ address, amount: values.amount ?? '' })}
        footer={
          <Button block type="submit" color="warning" loading={submitting}>
            {t('deposit.simulate_submit')}
          </Button>
        }
        style={{ '--border-top': 'none', '--border-bottom': 'none', '--border-inner': 'none' }}
      >
        <Form.Item name="amount" label={t('deposit.simulate_amount')} style={{ padding: 0 }}>
          <Input
            inputMode="decimal"
            autoComplete="off"
            aria-label={t('deposit.simulate_amount')}
            clearable
          />
        </Form.Item>
      </Form>
    </section>
  );
}
