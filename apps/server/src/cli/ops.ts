// `npm run ops -- <command> [options]`: operator actions from a shell on the server.
// Whoever can run this can reach the database; every action still names an operator
// (--operator) and is audit-logged like the same action through the API.
// A running server on this DATA_DIR runs the command itself (its admin channel): only it may
// open an embedded database, and only it holds the sockets and caches the command affects.
import os from 'node:os';
import { buildApp } from '../app.ts';
import type { OpsContext } from '../modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../ops-commands.ts';
import { findOperator } from '../modules/operator/service.ts';
import {
  type AdminReply,
  adminSocketPath,
  askAdminSocket,
  databaseIdentity,
} from '../platform/admin-socket.ts';
import { loadConfig } from '../platform/config.ts';
import { type DataLock, DataDirInUseError, acquireDataLock } from '../platform/data-lock.ts';
import { openDatabase } from '../platform/db.ts';

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
  for (const [commandName, c] of [...OPS_COMMANDS].sort())
    console.log(`  ${commandName}: ${c.usage}`);
  process.exit(name ? 1 : 0);
}

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const options: Record<string, string> = values;
// Every action from the shell is audited as `cli:<os user>`; the CLI says who, not the caller.
options['os-user'] = os.userInfo().username;
const args = positionals.slice(1);

/** Runs the command in this process, on a database it opens itself. */
async function runHere(run: NonNullable<typeof command>): Promise<void> {
  // On PGlite that needs DATA_DIR to ourselves.
  let lock: DataLock | undefined;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataLock(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      console.error(error.message);
      process.exitCode = 1;
      return;
    }
  }
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    try {
      await database.migrate();
      const app = await buildApp({ config, database, logger: false });
      try {
        const operator = options.operator
          ? await findOperator(database.db, options.operator, {
              user: options['os-user'],
              reason: options.reason,
            })
          : undefined;
        if (run.needsOperator && !operator)
          throw new Error('name an existing operator with --operator USERNAME');
        if (run.needsOperator && !options.reason)
          throw new Error('every action from the shell needs --reason "…" for the audit log');
        const context: OpsContext = { ...app.services, db: database.db, operator, args };
        console.log(await run.run(context, options));
      } catch (error) {
        console.error(error instanceof Error ? error.message : error);
        process.exitCode = 1;
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

const socketPath = adminSocketPath(config.dataDir);
const reply: AdminReply | undefined = await askAdminSocket(socketPath, {
  command: name as string,
  options,
  positionals: args,
  database: databaseIdentity(config.databaseUrl),
}).catch((error: unknown) => ({
  ok: false,
  error: `cannot reach the server on ${socketPath}: ${error instanceof Error ? error.message : String(error)}`,
}));
if (!reply) {
  await runHere(command);
} else if (reply.ok) {
  console.log(reply.output);
} else {
  console.error(reply.error);
  process.exitCode = 1;
}
