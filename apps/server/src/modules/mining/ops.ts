import fs from 'node:fs';
import { miningDecideRequestSchema, miningProductInputSchema } from '@tradewind/contract/mining';
import { explainOpsError, optionIssues, type OpsCommands } from '../operator/ops-commands.ts';
import { decideRental, listAdminProducts, listQueue, payDue, saveProduct } from './service.ts';

export const miningOpsCommands: OpsCommands = {
  'mining:queue': {
    usage: 'mining:queue [--cursor ID]  (miner rentals under review, oldest first)',
    needsOperator: false,
    async run({ db }, options) {
      const { items, nextCursor } = await listQueue(db, options.cursor);
      const lines = items.map(
        (i) =>
          `#${i.id} uid ${i.uid} ${i.createdAt} ${i.productName} x${i.quantity} paid ${i.amount} ${i.asset}, ${i.dailyYield}/day for ${i.periodDays} days`,
      );
      if (nextCursor) lines.push(`more: --cursor ${nextCursor}`);
      return lines.join('\n') || 'no rentals under review';
    },
  },

  'mining:decide': {
    usage:
      'mining:decide --id ID --decision approve|reject [--reason "…"] --operator USERNAME  (approve starts the rental; reject refunds it and needs a reason)',
    needsOperator: true,
    async run({ db, clock, ledger, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      const parsed = miningDecideRequestSchema.safeParse({
        id: options.id,
        decision: options.decision,
        reason: options.reason,
      });
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const decided = await decideRental(db, ledger, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `miner rental #${decided.id} (uid ${decided.uid}) is now ${decided.status}${decided.status === 'rejected' ? `: ${decided.amount} ${decided.asset} refunded` : `, ends ${decided.endsAt}`}`;
    },
  },

  'mining:products': {
    usage: 'mining:products  (every miner with its terms)',
    needsOperator: false,
    async run({ db }) {
      const items = await listAdminProducts(db);
      return (
        items
          .map(
            (p) =>
              `#${p.id} ${p.slug} ${p.enabled ? 'enabled' : 'disabled'} "${p.name}" ${p.output} ${p.hashrate} ${p.power} ${p.periodDays} days, unit ${p.unitPrice} USDT, min ${p.minInvestment}, max ${p.maxQuantity} units, ${p.dailyRatePpm} ppm/day`,
          )
          .join('\n') || 'no miners'
      );
    },
  },

  'mining:product': {
    usage:
      'mining:product --file PRODUCT.json --operator USERNAME  (create, or edit when the JSON has "id"; the JSON is the API body of POST /api/admin/v1/mining/products)',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator) throw new Error('name an existing operator with --operator USERNAME');
      if (!options.file) throw new Error('need --file PRODUCT.json');
      const parsed = miningProductInputSchema.safeParse(
        JSON.parse(fs.readFileSync(options.file, 'utf8')),
      );
      if (!parsed.success) throw new Error(optionIssues(parsed.error));
      const saved = await saveProduct(db, clock.now(), operator, parsed.data).catch(
        explainOpsError,
      );
      return `miner #${saved.id} ${saved.slug} saved (${saved.enabled ? 'enabled' : 'disabled'})`;
    },
  },

  'mining:pay-due': {
    usage: 'mining:pay-due  (pays every day due now, once; safe beside running workers)',
    needsOperator: false,
    async run({ db, clock, ledger }) {
      const result = await payDue(db, ledger, clock.now());
      return `${result.days} days paid, ${result.completed} rentals completed`;
    },
  },
};
