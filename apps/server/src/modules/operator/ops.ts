// The operator module's own `npm run ops` commands, and the ledger check's. They live here
// rather than in cli/ops.ts so the running server, which answers the CLI over its admin
// channel, knows them too.
import { type OpsCommands, explainOpsError } from './ops-commands.ts';
import { ledgerReport } from '../ledger/ops.ts';
import { createFirstAdmin, decideOperatorRequest } from './requests.ts';
import { type ShellActor, listAudit } from './service.ts';

/**
 * Whoever runs a command at the shell, as the CLI reports them (`--os-user`, which the CLI sets
 * itself) with the reason every shell action needs.
 */
function shellActor(options: Record<string, string | undefined>): ShellActor {
  return {
    operatorId: null,
    via: 'cli',
    cliUser: options['os-user'] || 'unknown',
    cliReason: options.reason ?? '',
  };
}

export const operatorOpsCommands: OpsCommands = {
  'create-operator': {
    usage:
      'create-operator --username NAME --reason "…"  (the first admin, only while no admin exists; prints its password and TOTP secret)',
    needsOperator: false,
    async run({ db, clock }, options) {
      if (!options.username || !options.reason) throw new Error('need --username and --reason "…"');
      if (options.role && options.role !== 'admin')
        throw new Error(
          'the shell creates only the first admin; other operators are requested in the console',
        );
      const { id, password, totpSecret, otpauthUri } = await createFirstAdmin(
        db,
        clock.now(),
        shellActor(options),
        { username: options.username },
      ).catch(explainOpsError);
      return [
        `operator ${options.username} (#${id}, admin) created; password: ${password}`,
        `totp secret: ${totpSecret}`,
        `authenticator link: ${otpauthUri}`,
        'Add the secret to an authenticator app; the console asks for its 6-digit code at every sign-in.',
      ].join('\n');
    },
  },

  'operator-request:approve': {
    usage:
      'operator-request:approve --id ID --reason "…"  (only while the install has never had two admins: the second approval that brings in the second admin; prints the enrolment code)',
    needsOperator: false,
    async run({ db, clock }, options) {
      const id = Number(options.id);
      if (!Number.isSafeInteger(id) || id <= 0 || !options.reason)
        throw new Error('need --id ID and --reason "…"');
      const { request, enrolment } = await decideOperatorRequest(
        db,
        clock.now(),
        shellActor(options),
        {
          id,
          decision: 'approve',
          reason: options.reason,
        },
      ).catch(explainOpsError);
      return [
        `request #${request.id} (${request.kind} ${request.username}, ${request.role}) approved`,
        ...(enrolment
          ? [
              `enrolment code (once; hand it to ${request.username} in person): ${enrolment.code}`,
              `the console page: ${enrolment.path} (expires ${enrolment.expiresAt})`,
            ]
          : []),
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
