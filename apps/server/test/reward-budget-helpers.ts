import crypto from 'node:crypto';
import type { AssetCode } from '@tradewind/contract/wallet';
import { createOperator } from '../src/modules/operator/service.ts';
import type { OperatorContext } from '../src/modules/operator/service.ts';
import {
  decideRewardBudgetChange,
  requestRewardBudgetChange,
} from '../src/modules/rewards/service.ts';
import type { TestApp } from './harness.ts';

/** An admin written straight to the table, as an operator context for calling services. */
export async function adminContext(t: TestApp, prefix = 'budget'): Promise<OperatorContext> {
  const username = `${prefix}-${crypto.randomBytes(3).toString('hex')}`;
  const created = await createOperator(t.database.db, t.clock.now(), { username, role: 'admin' });
  return { operatorId: created.id, username, role: 'admin', via: 'api' };
}

/**
 * Raises an asset's reward budget the only way there is: one admin requests, a different admin
 * approves. For tests that redeem bonus codes (issue 29).
 */
export async function approveRewardBudget(
  t: TestApp,
  amount: string,
  asset: AssetCode = 'USDT',
): Promise<void> {
  const asker = await adminContext(t, 'asker');
  const approver = await adminContext(t, 'approver');
  const now = t.clock.now();
  const change = await requestRewardBudgetChange(t.database.db, now, asker, {
    asset,
    amount,
    reason: 'test budget',
  });
  await decideRewardBudgetChange(t.database.db, now, approver, {
    id: change.id,
    decision: 'approve',
  });
}
