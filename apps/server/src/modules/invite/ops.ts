import { bonusCodeDecisionSchema, createBonusCodeRequestSchema } from '@tradewind/contract/invite';
import { explainOpsError, optionIssues, type OpsCommands } from '../operator/ops-commands.ts';
import { rewardOpsCommands } from '../rewards/ops.ts';
import { createBonusCode, decideBonusCode, listBonusCodes } from './service.ts';

/** Bonus codes, and (carried here so the server's list stays as it is) reward budgets. */
export const inviteOpsCommands: OpsCommands = {
  ...rewardOpsCommands,

  'bonus-code:decide': {
    usage:
      'bonus-code:decide --id N --decision approve|reject [--reason "…" (required to reject)] --operator USERNAME  (a code above the threshold; never by its creator)',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = bonusCodeDecisionSchema.safeParse({
        id: options.id,
        decision: options.decision,
        ...(options.reason ? { reason: options.reason } : {}),
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const code = await decideBonusCode(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `bonus code ${code.code} (#${code.id}) ${code.approvalStatus}`;
    },
  },

  'bonus-code:list': {
    usage: 'bonus-code:list  (newest 100, with redemption counts)',
    needsOperator: false,
    async run({ db }) {
      const items = await listBonusCodes(db);
      return (
        items
          .map(
            (c) =>
              `${c.code} ${c.amount} ${c.asset} redeemed ${c.redeemedCount}/${c.maxRedemptions} (≤${c.perUserLimit} per user${c.verifiedOnly ? ', verified only' : ''}${c.onePerIdentity ? ', one per identity' : ''}) ${c.startsAt} → ${c.expiresAt}${c.approvalStatus === 'approved' ? '' : ` [${c.approvalStatus === 'pending' ? 'awaiting a second admin' : 'rejected'}]`}`,
          )
          .join('\n') || 'no bonus codes'
      );
    },
  },

  'bonus-code:create': {
    usage:
      'bonus-code:create --code CODE --asset USDT --amount 10 --max-redemptions N [--per-user N] --expires-at ISO [--starts-at ISO] [--open-to-unverified] [--one-per-identity] [--reason "…"] --operator USERNAME',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = createBonusCodeRequestSchema.safeParse({
        code: options.code,
        asset: options.asset,
        amount: options.amount,
        maxRedemptions: options['max-redemptions'],
        ...(options['per-user'] ? { perUserLimit: options['per-user'] } : {}),
        ...(options['starts-at'] ? { startsAt: options['starts-at'] } : {}),
        expiresAt: options['expires-at'],
        verifiedOnly: options['open-to-unverified'] !== 'true',
        onePerIdentity: options['one-per-identity'] === 'true',
        ...(options.reason ? { reason: options.reason } : {}),
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const created = await createBonusCode(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      const waiting =
        created.approvalStatus === 'pending'
          ? `; its total ${created.total} ${created.asset} is above the threshold: a second admin approves it in the console before anyone can redeem it`
          : '';
      return `bonus code ${created.code} (#${created.id}) created: ${created.amount} ${created.asset}, ${created.maxRedemptions} in all, ${created.perUserLimit} per user, until ${created.expiresAt}${waiting}`;
    },
  },
};
