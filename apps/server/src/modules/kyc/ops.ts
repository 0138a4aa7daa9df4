import { kycDecideRequestSchema } from '@tradewind/contract/kyc';
import { explainOpsError, optionIssues, type OpsCommands } from '../operator/ops-commands.ts';
import { decideKyc, listKycQueue } from './service.ts';

export const kycOpsCommands: OpsCommands = {
  'kyc:list': {
    usage: 'kyc:list [--cursor ID]  (pending verifications, oldest first)',
    needsOperator: false,
    async run({ db }, options) {
      const { items, nextCursor } = await listKycQueue(db, options.cursor);
      const lines = items.map(
        (i) =>
          `#${i.id} uid ${i.uid} ${i.createdAt} ${i.country} ${i.lastName}, ${i.firstName} ${i.documentType} ${i.documentNumber} files front ${i.frontFileId} back ${i.backFileId ?? '-'} face ${i.faceFileId}`,
      );
      if (nextCursor) lines.push(`more: --cursor ${nextCursor}`);
      return lines.join('\n') || 'no pending verifications';
    },
  },

  'kyc:decide': {
    usage:
      'kyc:decide --id ID --decision approve|reject [--reason "…"] --operator USERNAME  (a reason is required to reject)',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = kycDecideRequestSchema.safeParse({
        id: options.id,
        decision: options.decision,
        reason: options.reason,
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const decided = await decideKyc(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `verification #${decided.id} (uid ${decided.uid}) is now ${decided.status}`;
    },
  },
};
