import * as z from 'zod/mini';

/**
 * The rewards centre's tasks (issue 32, spec §8 "Mission accomplished", §9 progress 0–100).
 * Progress is computed on the server from what the user has really done; a finished task is
 * claimed once. Points rewards are points events; money rewards are paid from the approved
 * reward budget through the ledger, so a task can never create money by itself.
 */

export const TASK_IDS = [
  'checkin_streak',
  'kyc_verified',
  'first_deposit',
  'first_trade',
  'invite_verified',
] as const;
export type TaskId = (typeof TASK_IDS)[number];

/** Consecutive check-in days the streak task asks for. */
export const TASK_STREAK_DAYS = 7;

export type TaskReward =
  { kind: 'points'; points: number } | { kind: 'asset'; asset: 'USDT'; amount: string };

export interface TaskDefinition {
  reward: TaskReward;
  /** Only a KYC-verified user may claim it (money rewards). */
  requiresVerified: boolean;
}

export const TASKS: Record<TaskId, TaskDefinition> = {
  checkin_streak: { reward: { kind: 'points', points: 100 }, requiresVerified: false },
  kyc_verified: { reward: { kind: 'points', points: 200 }, requiresVerified: false },
  first_deposit: { reward: { kind: 'asset', asset: 'USDT', amount: '2' }, requiresVerified: true },
  first_trade: { reward: { kind: 'points', points: 150 }, requiresVerified: false },
  invite_verified: {
    reward: { kind: 'asset', asset: 'USDT', amount: '1' },
    requiresVerified: true,
  },
};

/** Progress shown as a whole percentage, always within 0–100 (spec §9). */
export function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.floor(value)));
}

/**
 * in_progress: not done yet; claimable: done, reward waiting; claimed: paid;
 * unavailable: done but this user may not take part (not verified, or the budget is spent).
 */
export const TASK_STATUSES = ['in_progress', 'claimable', 'claimed', 'unavailable'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const taskRewardSchema = z.object({
  kind: z.enum(['points', 'asset']),
  /** Points as an integer string, or the asset amount. */
  amount: z.string(),
  /** USDT for money rewards, null for points. */
  asset: z.nullable(z.string()),
});

export const taskSchema = z.object({
  id: z.enum(TASK_IDS),
  progress: z.number().check(z.int(), z.gte(0), z.lte(100)),
  /** Steps done and steps needed (days for the streak, 1 for the others). */
  done: z.number().check(z.int(), z.nonnegative()),
  target: z.number().check(z.int(), z.positive()),
  status: z.enum(TASK_STATUSES),
  requiresVerified: z.boolean(),
  reward: taskRewardSchema,
});
export type Task = z.infer<typeof taskSchema>;

export const tasksSchema = z.object({
  items: z.array(taskSchema),
  /** The user's points balance. */
  points: z.number().check(z.int()),
  verified: z.boolean(),
});
export type Tasks = z.infer<typeof tasksSchema>;

export const claimTaskRequestSchema = z.strictObject({
  task: z.enum(TASK_IDS, { error: 'validation.invalid_value' }),
});
export type ClaimTaskRequest = z.infer<typeof claimTaskRequestSchema>;

export const claimTaskResultSchema = z.object({
  task: z.enum(TASK_IDS),
  reward: taskRewardSchema,
  /** "Congratulations on receiving a reward", in the request's language. */
  message: z.string(),
});
export type ClaimTaskResult = z.infer<typeof claimTaskResultSchema>;
