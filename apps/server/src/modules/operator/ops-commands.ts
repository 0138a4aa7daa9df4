import type { z } from 'zod/mini';
import type { AppServices } from '../../services.ts';
import type { Db } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
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

/** Rethrows a service's AppError as the command's one error line, `NAME: message` in English; anything else as it is. */
export function explainOpsError(error: unknown): never {
  throw error instanceof AppError
    ? new Error(`${error.errorName}: ${translate('en', `errors.${error.errorName}`, error.params)}`)
    : error;
}

/** A schema's refusal of the options as `--field: message; …` in English. */
export function optionIssues(error: z.core.$ZodError): string {
  return error.issues.map((i) => `--${i.path.join('.')}: ${translate('en', i.message)}`).join('; ');
}
