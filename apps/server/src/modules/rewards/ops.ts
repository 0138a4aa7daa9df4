import { rewardBudgetDecisionSchema, rewardBudgetRequestSchema } from '@tradewind/contract/invite';
import { explainOpsError, optionIssues, type OpsCommands } from '../operator/ops-commands.ts';
import {
  decideRewardBudgetChange,
  listRewardBudgets,
  requestRewardBudgetChange,
} from './service.ts';

/** Reward budgets from the shell (issue 29): the same two-admin rule as the console. */
export const rewardOpsCommands: OpsCommands = {
  'reward-budget:list': {
    usage: 'reward-budget:list  (approved, paid and remaining per asset; newest changes)',
    needsOperator: false,
    async run({ db }) {
      const { budgets, changes } = await listRewardBudgets(db);
      const lines = budgets.map(
        (b) =>
          `${b.asset}: approved ${b.approved}, paid ${b.granted}, remaining ${b.remaining} (codes above ${b.codeApprovalThreshold} need a second admin)`,
      );
      for (const c of changes)
        lines.push(
          `#${c.id} ${c.amount} ${c.asset} ${c.status} — ${c.reason} (requested by ${c.requestedBy ?? 'nobody: seeded'}${c.decidedBy ? `, decided by ${c.decidedBy}` : ''})`,
        );
      return lines.join('\n');
    },
  },

  'reward-budget:request': {
    usage:
      'reward-budget:request --asset USDT --amount 5000|-500 --reason "…" --operator USERNAME  (another admin decides)',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = rewardBudgetRequestSchema.safeParse({
        asset: options.asset,
        amount: options.amount,
        reason: options.reason,
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const change = await requestRewardBudgetChange(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `reward budget change #${change.id} requested: ${change.amount} ${change.asset}; a different admin approves it`;
    },
  },

  'reward-budget:decide': {
    usage:
      'reward-budget:decide --id N --decision approve|reject [--reason "…" (required to reject)] --operator USERNAME',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = rewardBudgetDecisionSchema.safeParse({
        id: options.id,
        decision: options.decision,
        ...(options.reason ? { reason: options.reason } : {}),
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const change = await decideRewardBudgetChange(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `reward budget change #${change.id} ${change.status}`;
    },
  },
};
