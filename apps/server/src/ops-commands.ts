// Every `npm run ops` command, from the modules that own them: the CLI (cli/ops.ts) and the
// running server's admin channel (main.ts) are handed this list. A plain value built from each
// module's export, not a registry that imports fill as a side effect.
import type { OpsCommand, OpsCommands } from './modules/operator/ops-commands.ts';
import { cardDepositOpsCommands } from './modules/card-deposit/ops.ts';
import { ieoOpsCommands } from './modules/ieo/ops.ts';
import { inviteOpsCommands } from './modules/invite/ops.ts';
import { kycOpsCommands } from './modules/kyc/ops.ts';
import { loansOpsCommands } from './modules/loans/ops.ts';
import { messagesOpsCommands } from './modules/messages/ops.ts';
import { miningOpsCommands } from './modules/mining/ops.ts';
import { operatorOpsCommands } from './modules/operator/ops.ts';
import { withdrawalOpsCommands } from './modules/withdrawal/ops.ts';

function byName(...groups: OpsCommands[]): ReadonlyMap<string, OpsCommand> {
  const commands = new Map<string, OpsCommand>();
  for (const group of groups) {
    for (const [name, command] of Object.entries(group)) {
      // Two modules with one name would silently lose one of them.
      if (commands.has(name)) throw new Error(`two ops commands are named ${name}`);
      commands.set(name, command);
    }
  }
  return commands;
}

export const OPS_COMMANDS = byName(
  cardDepositOpsCommands,
  ieoOpsCommands,
  inviteOpsCommands,
  kycOpsCommands,
  loansOpsCommands,
  messagesOpsCommands,
  miningOpsCommands,
  operatorOpsCommands,
  withdrawalOpsCommands,
);
