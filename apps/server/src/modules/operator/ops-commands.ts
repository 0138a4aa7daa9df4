import type { AppServices } from '../../services.ts';
import type { Db } from '#platform/db.ts';
import type { OperatorContext } from './service.ts';

/** What an `npm run ops` command gets: the app's services, the named operator, extra arguments. */
export interface OpsContext extends AppServices {
  db: Db;
  operator: OperatorContext | undefined;
  args: string[];
}

export interface OpsCommand {
  usage: string;
  needsOperator: boolean;
  run: (context: OpsContext, options: Record<string, string | undefined>) => Promise<string>;
}

/**
 * A module's commands by name (e.g. `kyc:decide`), exported beside its services; the server's
 * list of them all is `OPS_COMMANDS` (src/ops-commands.ts), which the CLI and the admin channel
 * are handed.
 */
export type OpsCommands = Readonly<Record<string, OpsCommand>>;
