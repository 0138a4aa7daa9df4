import { ieoProjectInputSchema } from '@tradewind/contract/ieo';
import { translate } from '#platform/i18n.ts';
import { explainOpsError, type OpsCommands } from '../operator/ops-commands.ts';
import {
  cancelProject,
  createProject,
  listProjects,
  runAllocation,
  runDueIeo,
  runListing,
} from './service.ts';

export const ieoOpsCommands: OpsCommands = {
  'ieo:list': {
    usage: 'ieo:list  (projects with status codes)',
    needsOperator: false,
    async run({ db, clock }) {
      const items = await listProjects(db, clock.now(), 'en');
      return (
        items
          .map(
            (p) =>
              `#${p.id} ${p.token} status ${p.status} ${p.subscribed}/${p.supply} ends ${p.endsAt} lists ${p.listsAt} ${p.name}`,
          )
          .join('\n') || 'no projects'
      );
    },
  },

  'ieo:create': {
    usage:
      'ieo:create --json FILE.json --operator USERNAME  (the body of POST /api/admin/v1/ieo/create)',
    needsOperator: true,
    async run({ db, clock, operator }, options) {
      if (!operator || !options.json) throw new Error('need --json FILE and --operator USERNAME');
      const fs = await import('node:fs');
      const parsed = ieoProjectInputSchema.safeParse(
        JSON.parse(fs.readFileSync(options.json, 'utf8')),
      );
      if (!parsed.success)
        throw new Error(
          parsed.error.issues
            .map((i) => `${i.path.join('.')}: ${translate('en', i.message)}`)
            .join('; '),
        );
      const id = await createProject(db, clock.now(), operator, parsed.data).catch(explainOpsError);
      return `project #${id} (${parsed.data.token}) created`;
    },
  },

  'ieo:cancel': {
    usage:
      'ieo:cancel --id ID --reason "…" --operator USERNAME  (before allocation; refunds every application)',
    needsOperator: true,
    async run({ db, ledger, clock, operator }, options) {
      if (!operator || !options.id || !options.reason)
        throw new Error('need --id, --reason and --operator');
      await cancelProject(
        { db, ledger },
        clock.now(),
        operator,
        Number(options.id),
        options.reason,
      ).catch(explainOpsError);
      return `project #${options.id} cancelled; commitments refunded`;
    },
  },

  'ieo:allocate': {
    usage: 'ieo:allocate --id ID --operator USERNAME  (after the subscription ends; runs once)',
    needsOperator: true,
    async run({ db, ledger, clock, operator }, options) {
      if (!operator || !options.id) throw new Error('need --id and --operator');
      const { ran } = await runAllocation(
        { db, ledger },
        clock.now(),
        Number(options.id),
        operator,
      ).catch(explainOpsError);
      return ran
        ? `project #${options.id} allocated`
        : `project #${options.id} was already allocated`;
    },
  },

  'ieo:list-token': {
    usage:
      'ieo:list-token --id ID --operator USERNAME  (at the listing time: credits the tokens; runs once)',
    needsOperator: true,
    async run({ db, ledger, clock, operator }, options) {
      if (!operator || !options.id) throw new Error('need --id and --operator');
      const { ran } = await runListing(
        { db, ledger },
        clock.now(),
        Number(options.id),
        operator,
      ).catch(explainOpsError);
      return ran
        ? `project #${options.id} listed; tokens credited`
        : `project #${options.id} was already listed`;
    },
  },

  'ieo:run-due': {
    usage: 'ieo:run-due  (what the worker does: allocate ended subscriptions, list due projects)',
    needsOperator: false,
    async run({ db, ledger, clock }) {
      const { allocated, listed } = await runDueIeo({ db, ledger }, clock.now());
      return `allocated ${allocated.join(', ') || 'none'}; listed ${listed.join(', ') || 'none'}`;
    },
  },
};
