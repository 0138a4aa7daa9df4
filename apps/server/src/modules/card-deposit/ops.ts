import { cardDepositDecideRequestSchema } from '@tradewind/contract/card-deposit';
import { explainOpsError, optionIssues, type OpsCommands } from '../operator/ops-commands.ts';
import { decideCardDeposit, listCardDepositQueue } from './service.ts';

export const cardDepositOpsCommands: OpsCommands = {
  'card-deposit:list': {
    usage: 'card-deposit:list [--cursor ID]  (pending bank-card deposits, oldest first)',
    needsOperator: false,
    async run({ db }, options) {
      const { items, nextCursor } = await listCardDepositQueue(db, options.cursor);
      const lines = items.map(
        (i) =>
          `#${i.id} uid ${i.uid} ${i.createdAt} amount ${i.amount} ${i.asset} fee ${i.fee} credit ${i.actualAmount} to ${i.payee.bank} ${i.payee.cardNumber} screenshot file ${i.screenshotFileId}`,
      );
      if (nextCursor) lines.push(`more: --cursor ${nextCursor}`);
      return lines.join('\n') || 'no pending bank-card deposits';
    },
  },

  'card-deposit:decide': {
    usage:
      'card-deposit:decide --id ID --decision approve|reject [--reason "…"] --operator USERNAME  (approve credits the user; a reason is required to reject)',
    needsOperator: true,
    async run({ db, clock, ledger, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = cardDepositDecideRequestSchema.safeParse({
        id: options.id,
        decision: options.decision,
        reason: options.reason,
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const decided = await decideCardDeposit(db, ledger, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `bank-card deposit #${decided.id} (uid ${decided.uid}) is now ${decided.status}${decided.status === 'paid' ? `: ${decided.actualAmount} ${decided.asset} credited` : ''}`;
    },
  },
};
