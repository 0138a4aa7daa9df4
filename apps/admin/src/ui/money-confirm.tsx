import { App, Alert, Button, type ButtonProps, Descriptions, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from './amount.tsx';

const useT = defineStrings({
  en: {
    user: 'User',
    asset: 'Asset',
    amount: 'Amount',
    fee: 'Fee',
    receives: 'The user receives',
    cancel: 'Cancel',
    done: 'Done',
  },
  'zh-CN': {
    user: '用户',
    asset: '币种',
    amount: '金额',
    fee: '手续费',
    receives: '用户实收',
    cancel: '取消',
    done: '已完成',
  },
});

/** One more fact beside the money (a destination, a transaction id, a product). */
export interface MoneyFact {
  label: string;
  value: ReactNode;
}

/**
 * What an operator is about to do with someone's money, in the words the confirmation shows.
 * Amounts are decimal strings as the API sends them, always shown with `asset`.
 */
export interface MoneySummary {
  /** The question: "Approve withdrawal #12?" */
  title: string;
  /** What confirming does, in a sentence ("Releases the funds to the address below."). */
  effect: ReactNode;
  /** The user it concerns (uid). */
  uid: string;
  asset?: string;
  amount?: string;
  /** Label of the amount when "Amount" says too little ("Requested", "Paid"). */
  amountLabel?: string;
  fee?: string;
  /** What the user ends up with after the fee (a deposit credited, a withdrawal sent). */
  receives?: string;
  receivesLabel?: string;
  facts?: MoneyFact[];
  /** The confirming button's text ("Approve and release"). */
  okText: string;
  /** A red button: the action takes money away or cannot be undone in the user's favour. */
  danger?: boolean;
}

/** A row of the confirmation, as text: what unit tests and the screen agree on. */
export interface MoneyRow {
  key: string;
  label: string;
  value: ReactNode;
}

type T = ReturnType<typeof useT>;

/** The rows a summary shows, user first, then asset, amount, fee, what the user receives, the rest. */
export function moneyRows(summary: MoneySummary, t: (key: Parameters<T>[0]) => string): MoneyRow[] {
  const money = (value: string) => <Amount value={value} asset={summary.asset} />;
  const rows: (MoneyRow | false)[] = [
    { key: 'user', label: t('user'), value: summary.uid },
    summary.asset !== undefined && { key: 'asset', label: t('asset'), value: summary.asset },
    summary.amount !== undefined && {
      key: 'amount',
      label: summary.amountLabel ?? t('amount'),
      value: money(summary.amount),
    },
    summary.fee !== undefined && { key: 'fee', label: t('fee'), value: money(summary.fee) },
    summary.receives !== undefined && {
      key: 'receives',
      label: summary.receivesLabel ?? t('receives'),
      value: money(summary.receives),
    },
    ...(summary.facts ?? []).map((fact, index) => ({ key: `fact-${index}`, ...fact })),
  ];
  return rows.filter((row): row is MoneyRow => row !== false);
}

/** The facts of a money action as a bordered table (the confirmation's body, or a reason modal's help). */
export function MoneyFacts({ summary }: { summary: MoneySummary }) {
  const t = useT();
  return (
    <Descriptions column={1} size="small" bordered data-testid="money-facts">
      {moneyRows(summary, t).map((row) => (
        <Descriptions.Item key={row.key} label={row.label}>
          <span data-testid={`money-${row.key}`}>{row.value}</span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

export interface MoneyConfirmProps {
  /** The summary to confirm; the dialog is open while it is set. */
  summary: MoneySummary | undefined;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The one confirmation every console action that moves or releases money goes through: who, which
 * asset, how much (and the fee and what the user receives), and what confirming does. Nothing is
 * sent before the operator presses its button.
 */
export function MoneyConfirm({ summary, loading, onConfirm, onCancel }: MoneyConfirmProps) {
  const t = useT();
  return (
    <Modal
      open={summary !== undefined}
      title={summary?.title}
      width={560}
      okText={summary?.okText}
      cancelText={t('cancel')}
      okButtonProps={{ danger: summary?.danger, 'data-testid': 'money-confirm-ok' } as ButtonProps}
      cancelButtonProps={{ 'data-testid': 'money-confirm-cancel' } as ButtonProps}
      confirmLoading={loading}
      onOk={onConfirm}
      onCancel={onCancel}
      destroyOnHidden
      data-testid="money-confirm"
    >
      {summary ? (
        <>
          <Alert
            type={summary.danger ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 16 }}
            message={summary.effect}
            data-testid="money-confirm-effect"
          />
          <MoneyFacts summary={summary} />
        </>
      ) : null}
    </Modal>
  );
}

export interface MoneyButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** Built when the button is pressed, so it shows the item as it is then. */
  summary: () => MoneySummary;
  /** Runs once the operator confirms; throw (ApiError) to show the refusal. */
  action: () => Promise<unknown>;
  /** The success message; "Done" by default. */
  doneText?: string;
}

/** A button whose action moves money: it opens the confirmation, and only its button acts. */
export function MoneyButton({ summary, action, doneText, children, ...button }: MoneyButtonProps) {
  const t = useT();
  const { message } = App.useApp();
  const [open, setOpen] = useState<MoneySummary>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (busy) return;
    setBusy(true);
    try {
      await action();
      message.success(doneText ?? t('done'));
      setOpen(undefined);
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button {...button} loading={busy} onClick={() => setOpen(summary())}>
        {children}
      </Button>
      <MoneyConfirm
        summary={open}
        loading={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(undefined)}
      />
    </>
  );
}
