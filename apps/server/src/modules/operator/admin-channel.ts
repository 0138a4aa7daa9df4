// `npm run ops` against a running server: the command runs in the server process, with its
// services, so a broadcast reaches the sockets this process holds and a cache sees the change.
import type { FastifyInstance } from 'fastify';
import {
  type AdminReply,
  type AdminRequest,
  type AdminSocketServer,
  adminSocketPath,
  databaseIdentity,
  serveAdminSocket,
} from '#platform/admin-socket.ts';
import type { OpsCommand, OpsContext } from './ops-commands.ts';
import { findOperator } from './service.ts';

/**
 * Runs one `npm run ops` command with the app's services, exactly as the CLI runs it on its
 * own: the named operator acts `via: 'cli'` and the command audits what it does.
 */
export async function runOpsCommand(
  app: FastifyInstance,
  commands: ReadonlyMap<string, OpsCommand>,
  request: AdminRequest,
): Promise<AdminReply> {
  const database = databaseIdentity(app.services.config.databaseUrl);
  if (request.database !== undefined && request.database !== database) {
    return {
      ok: false,
      error: `the server on this DATA_DIR uses ${database}, not ${request.database}: set the same DATABASE_URL as the server, or another DATA_DIR`,
    };
  }
  const command = commands.get(request.command);
  if (!command)
    return { ok: false, error: `unknown command ${request.command} (npm run ops lists them)` };
  const db = app.services.database.db;
  const operator = request.options.operator
    ? await findOperator(db, request.options.operator, {
        user: request.options['os-user'],
        reason: request.options.reason,
      })
    : undefined;
  if (command.needsOperator && !operator)
    return { ok: false, error: 'name an existing operator with --operator USERNAME' };
  if (command.needsOperator && !request.options.reason)
    return { ok: false, error: 'every action from the shell needs --reason "…" for the audit log' };
  const context: OpsContext = { ...app.services, db, operator, args: request.positionals };
  try {
    return { ok: true, output: await command.run(context, request.options) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Listens on `DATA_DIR/admin.sock`; undefined when it cannot (the log says why). */
export function startAdminChannel(
  app: FastifyInstance,
  commands: ReadonlyMap<string, OpsCommand>,
): Promise<AdminSocketServer | undefined> {
  return serveAdminSocket(
    adminSocketPath(app.services.config.dataDir),
    async (request) => {
      const reply = await runOpsCommand(app, commands, request);
      // The options may carry secrets and the output does (create-operator): log the name only.
      app.log.info(
        { command: request.command, operator: request.options.operator, ok: reply.ok },
        'ops command over the admin channel',
      );
      return reply;
    },
    app.log,
  );
}
