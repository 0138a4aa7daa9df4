// `npm run ops -- withdrawal:<action> …`: the operator actions of routes.ts from a shell,
// through the same services (status checked under a row lock, ledger, audit log).
import {
  withdrawalCompleteRequestSchema,
  withdrawalFailRequestSchema,
  withdrawalQueueQuerySchema,
  withdrawalReviewRequestSchema,
} from '@tradewind/contract/withdrawal';
import type { z } from 'zod/mini';
import type { OpsCommands, OpsContext } from '../operator/ops-commands.ts';
import type { OperatorContext } from '../operator/service.ts';
import {
  completeWithdrawal,
  failWithdrawal,
  reviewWithdrawal,
  withdrawalQueue,
} from './service.ts';

function parse<S extends z.ZodMiniType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(values);
  if (!result.success)
    throw new Error(
      result.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'),
    );
  return result.data;
}

function operatorOf(context: OpsContext): OperatorContext {
  if (!context.operator) throw new Error('name an existing operator with --operator USERNAME');
  return context.operator;
}

const summary = (w: {
  id: string;
  status: string;
  asset: string;
  amount: string;
  fee: string;
  uid: string;
}) => `withdrawal #${w.id} uid ${w.uid} ${w.amount} ${w.asset} (fee ${w.fee}): ${w.status}`;

export const withdrawalOpsCommands: OpsCommands = {
  'withdrawal:queue': {
    usage: 'withdrawal:queue [--status under_review|processing]  (oldest first, 100 at most)',
    needsOperator: false,
    async run(context, options) {
      const items = await withdrawalQueue(
        context,
        parse(withdrawalQueueQuerySchema, {
          ...(options.status ? { status: options.status } : {}),
        }),
      );
      const approvals = (w: (typeof items)[number]) =>
        w.awaitingSecondApproval
          ? ` [needs a second approval; first: ${w.firstApprovedBy}]`
          : w.secondApprovalRequired && w.status === 'under_review'
            ? ' [needs two approvals]'
            : '';
      return (
        items
          .map(
            (w) =>
              `${summary(w)} → ${w.address ?? `${w.card?.bankName} ${w.cardAccountNumber}`}${approvals(w)}`,
          )
          .join('\n') || 'queue empty'
      );
    },
  },

  'withdrawal:review': {
    usage:
      'withdrawal:review --id ID --decision approve|reject [--reason "…"] --operator USERNAME  (a reason is required to reject)',
    needsOperator: true,
    async run(context, options) {
      const input = parse(withdrawalReviewRequestSchema, {
        id: options.id,
        decision: options.decision,
        ...(options.reason ? { reason: options.reason } : {}),
      });
      return summary(
        await reviewWithdrawal(context, operatorOf(context), { ...input, id: Number(input.id) }),
      );
    },
  },

  'withdrawal:complete': {
    usage: 'withdrawal:complete --id ID --txid TXID --operator USERNAME',
    needsOperator: true,
    async run(context, options) {
      const input = parse(withdrawalCompleteRequestSchema, { id: options.id, txid: options.txid });
      return summary(
        await completeWithdrawal(context, operatorOf(context), {
          id: Number(input.id),
          txid: input.txid,
        }),
      );
    },
  },

  'withdrawal:fail': {
    usage: 'withdrawal:fail --id ID --reason "…" --operator USERNAME',
    needsOperator: true,
    async run(context, options) {
      const input = parse(withdrawalFailRequestSchema, { id: options.id, reason: options.reason });
      return summary(
        await failWithdrawal(context, operatorOf(context), {
          id: Number(input.id),
          reason: input.reason,
        }),
      );
    },
  },
};
