// `npm run ops -- <command> [options]`: operator actions from a shell on the server.
// Whoever can run this can reach the database; every action still names an operator
// (--operator) and is audit-logged like the same action through the API.
import { OPERATOR_ROLES, type OperatorRole } from '@tradewind/contract/operator';
import { buildApp } from '../app.ts';
import { listAudit } from '../modules/operator/service.ts';
import { OPS_COMMANDS, type OpsContext, registerOpsCommand } from '../modules/operator/ops-commands.ts';
import { createOperator, findOperator } from '../modules/operator/service.ts';
import { loadConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db.ts';

registerOpsCommand('create-operator', {
  usage: 'create-operator --username NAME --role reviewer|catalog|admin  (prints a generated password and TOTP secret; first install: no --operator needed)',
  needsOperator: false,
  async run({ db, clock }, options) {
    const role = options.role as OperatorRole;
    if (!options.username || !OPERATOR_ROLES.includes(role)) throw new Error('need --username and --role reviewer|catalog|admin');
    const { id, password, totpSecret, otpauthUri } = await createOperator(db, clock.now(), { username: options.username, role });
    return [
      `operator ${options.username} (#${id}, ${role}) created; password: ${password}`,
      `totp secret: ${totpSecret}`,
      `authenticator link: ${otpauthUri}`,
      'Add the secret to an authenticator app; the console asks for its 6-digit code at every sign-in.',
    ].join('\n');
  },
});

registerOpsCommand('audit', {
  usage: 'audit [--action A] [--target-type T] [--target-id ID]  (newest 50)',
  needsOperator: false,
  async run({ db }, options) {
    const items = await listAudit(db, { action: options.action, targetType: options['target-type'], targetId: options['target-id'] }, 50);
    return items.map((i) => `${i.createdAt} ${i.operator} ${i.action} ${i.targetType}#${i.targetId} ${i.reason ?? ''}`).join('\n') || 'no entries';
  },
});

/** `--key value` pairs become options (a bare `--flag` is "true"); the rest are positionals. */
function parseArgs(argv: string[]) {
  const positionals: string[] = [];
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      values[arg.slice(2)] = next;
      i++;
    } else {
      values[arg.slice(2)] = 'true';
    }
  }
  return { positionals, values };
}

const { positionals, values } = parseArgs(process.argv.slice(2));
const [name] = positionals;
const command = name ? OPS_COMMANDS.get(name) : undefined;
if (!command) {
  console.log('usage: npm run ops -- <command> [options] --operator USERNAME [--reason "…"]\n');
  for (const [commandName, c] of [...OPS_COMMANDS].sort()) console.log(`  ${commandName}: ${c.usage}`);
  process.exit(name ? 1 : 0);
}

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
const app = await buildApp({ config, database, logger: false });
try {
  const options: Record<string, string | undefined> = values;
  const operator = options.operator ? await findOperator(database.db, options.operator) : undefined;
  if (command.needsOperator && !operator) throw new Error('name an existing operator with --operator USERNAME');
  const context: OpsContext = { ...app.services, db: database.db, operator, args: positionals.slice(1) };
  console.log(await command.run(context, options));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await app.close();
  await database.close();
}
