import { App, Alert, Button, type ButtonProps, Descriptions, Modal } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from './amount.tsx';
import { CONFIRM_IDLE, type ConfirmEvent, type ConfirmState, confirmStep } from './confirm-step.ts';

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
 * Whose money and how much: what a confirmation (and a rejection's reason dialog) shows.
 * Amounts are decimal strings as the API sends them, always shown with `asset`.
 */
export interface MoneyDetails {
  /** The user it concerns (uid); for an action on many users, who they are ("every applicant"). */
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
}

/** What an operator is about to do with someone's money, in the words the confirmation shows. */
export interface MoneySummary extends MoneyDetails {
  /** The question: "Approve withdrawal #12?" */
  title: string;
  /** What confirming does, in a sentence ("Releases the funds to the address below."). */
  effect: ReactNode;
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
export function moneyRows(summary: MoneyDetails, t: (key: Parameters<T>[0]) => string): MoneyRow[] {
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
export function MoneyFacts({ summary }: { summary: MoneyDetails }) {
  const t = useT();
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      styles={{ label: { width: 200 } }}
      data-testid="money-facts"
    >
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
  const gate = useConfirmGate<MoneySummary>();

  return (
    <>
      <Button
        {...button}
        loading={gate.state.phase === 'sending'}
        onClick={() => gate.press(summary())}
      >
        {children}
      </Button>
      <MoneyConfirm
        summary={gate.state.phase === 'idle' ? undefined : gate.state.summary}
        loading={gate.state.phase === 'sending'}
        onConfirm={() =>
          gate.confirm(async () => {
            try {
              await action();
              message.success(doneText ?? t('done'));
              return true;
            } catch (error) {
              message.error(errorText(error));
              return false;
            }
          })
        }
        onCancel={gate.cancel}
      />
    </>
  );
}

export interface ConfirmGate<S> {
  state: ConfirmState<S>;
  /** Opens the confirmation; sends nothing. */
  press: (summary: S) => void;
  /** Sends once (`send` resolves true on success: the dialog closes; false keeps it open). */
  confirm: (send: () => Promise<boolean>) => void;
  cancel: () => void;
}

/** The confirmation's steps (confirm-step.ts) as React state; a ref makes a double click send once. */
export function useConfirmGate<S>(): ConfirmGate<S> {
  const [state, setState] = useState<ConfirmState<S>>(CONFIRM_IDLE);
  const current = useRef<ConfirmState<S>>(CONFIRM_IDLE);
  const step = (event: ConfirmEvent<S>) => {
    const next = confirmStep(current.current, event);
    current.current = next.state;
    setState(next.state);
    return next.send;
  };
  return {
    state,
    press: (summary) => void step({ type: 'press', summary }),
    confirm: (send) => {
      if (!step({ type: 'confirm' })) return;
      void send().then((ok) => step({ type: ok ? 'done' : 'failed' }));
    },
    cancel: () => void step({ type: 'cancel' }),
  };
}
