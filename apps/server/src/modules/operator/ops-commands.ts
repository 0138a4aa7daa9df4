import type { AppServices } from '../../app.ts';
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

/** Domains register their commands here (e.g. `kyc:review`), next to their services. */
export const OPS_COMMANDS = new Map<string, OpsCommand>();

export function registerOpsCommand(name: string, command: OpsCommand): void {
  OPS_COMMANDS.set(name, command);
}
