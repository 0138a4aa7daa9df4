import { loanDecideRequestSchema, loanDisburseRequestSchema } from '@tradewind/contract/loans';
import { explainOpsError, optionIssues, type OpsCommands } from '../operator/ops-commands.ts';
import { accrueDue, decideLoan, disburseLoan, listQueue } from './service.ts';

export const loansOpsCommands: OpsCommands = {
  'loans:queue': {
    usage:
      'loans:queue [--cursor ID]  (loans under review or waiting for disbursement, oldest first)',
    needsOperator: false,
    async run({ db, clock }, options) {
      const { items, nextCursor } = await listQueue(db, clock.now(), options.cursor);
      const lines = items.map(
        (i) =>
          `#${i.id} uid ${i.uid} ${i.status} ${i.createdAt} ${i.productName} ${i.amount} ${i.asset} for ${i.periodDays} days at ${i.dailyRate}/day (files ${i.frontFileId}, ${i.backFileId}, ${i.holdingFileId})`,
      );
      if (nextCursor) lines.push(`more: --cursor ${nextCursor}`);
      return lines.join('\n') || 'no loans waiting';
    },
  },

  'loans:decide': {
    usage:
      'loans:decide --id ID --decision approve|reject [--reason "…"] --operator USERNAME  (reject needs a reason)',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = loanDecideRequestSchema.safeParse({
        id: options.id,
        decision: options.decision,
        reason: options.reason,
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const decided = await decideLoan(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `loan #${decided.id} (uid ${decided.uid}) is now ${decided.status}`;
    },
  },

  'loans:disburse': {
    usage:
      'loans:disburse --id ID --operator USERNAME  (credits the approved amount to the user from house:loans)',
    needsOperator: true,
    async run({ db, clock, ledger, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = loanDisburseRequestSchema.safeParse({ id: options.id });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const done = await disburseLoan(
        db,
        ledger,
        clock.now(),
        operator,
        Number(parsed.data.id),
      ).catch(explainOpsError);
      return `loan #${done.id} (uid ${done.uid}) disbursed: ${done.amount} ${done.asset}, due ${done.dueAt}`;
    },
  },

  'loans:accrue': {
    usage:
      'loans:accrue  (marks loans overdue and accrues every overdue day due now, once; safe beside running workers)',
    needsOperator: false,
    async run({ db, clock }) {
      const result = await accrueDue(db, clock.now());
      return `${result.overdue} loans became overdue, ${result.days} overdue days accrued`;
    },
  },
};
