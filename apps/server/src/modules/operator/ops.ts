// The operator module's own `npm run ops` commands, and the ledger check's. They live here
// rather than in cli/ops.ts so the running server, which answers the CLI over its admin
// channel, knows them too.
import { OPERATOR_ROLES, type OperatorRole } from '@tradewind/contract/operator';
import type { OpsCommands } from './ops-commands.ts';
import { ledgerReport } from '../ledger/ops.ts';
import { createOperator, listAudit } from './service.ts';

export const operatorOpsCommands: OpsCommands = {
  'create-operator': {
    usage:
      'create-operator --username NAME --role reviewer|catalog|admin  (prints a generated password and TOTP secret; first install: no --operator needed)',
    needsOperator: false,
    async run({ db, clock }, options) {
      const role = options.role as OperatorRole;
      if (!options.username || !OPERATOR_ROLES.includes(role))
        throw new Error('need --username and --role reviewer|catalog|admin');
      const { id, password, totpSecret, otpauthUri } = await createOperator(db, clock.now(), {
        username: options.username,
        role,
      });
      return [
        `operator ${options.username} (#${id}, ${role}) created; password: ${password}`,
        `totp secret: ${totpSecret}`,
        `authenticator link: ${otpauthUri}`,
        'Add the secret to an authenticator app; the console asks for its 6-digit code at every sign-in.',
      ].join('\n');
    },
  },

  audit: {
    usage: 'audit [--action A] [--target-type T] [--target-id ID]  (newest 50)',
    needsOperator: false,
    async run({ db }, options) {
      const items = await listAudit(
        db,
        {
          action: options.action,
          targetType: options['target-type'],
          targetId: options['target-id'],
        },
        50,
      );
      return (
        items
          .map(
            (i) =>
              `${i.createdAt} ${i.operator} ${i.action} ${i.targetType}#${i.targetId} ${i.reason ?? ''}`,
          )
          .join('\n') || 'no entries'
      );
    },
  },

  'ledger:check': {
    usage: 'ledger:check  (the invariants `npm run check:ledger` checks; exits 1 on a violation)',
    needsOperator: false,
    async run({ db, obligations }) {
      const report = await ledgerReport(db, obligations);
      if (!report.ok) throw new Error(report.text);
      return report.text;
    },
  },
};
