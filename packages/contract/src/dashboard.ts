import * as z from 'zod/mini';

/**
 * The operator console's overview (issue 7): money in and out by day, the house's result
 * from contracts by day, queue sizes, what is locked, and the ledger invariant checker's
 * last result. Amounts are decimal strings in the asset's scale; a house result can be negative.
 */

/** Days the dashboard covers, ending with today (UTC). */
export const DASHBOARD_DAYS = 30;

const decimal = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));
const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

export const dashboardFlowDaySchema = z.object({
  day,
  /** Credited on-chain deposits. */
  chainDeposits: decimal,
  /** Confirmed bank-card deposits, gross (what the user paid in, the fee included). */
  cardDeposits: decimal,
  /** Withdrawals that succeeded: what left to the address or card (the fee stays with the house). */
  withdrawals: decimal,
});
export type DashboardFlowDay = z.infer<typeof dashboardFlowDaySchema>;

export const dashboardFlowsSchema = z.object({
  asset: z.string(),
  scale: z.number().check(z.int()),
  /** Every day of the window, oldest first (zeros included). */
  days: z.array(dashboardFlowDaySchema),
});

export const dashboardHouseDaySchema = z.object({
  day,
  /** house:contracts: stakes of lost orders minus the profit paid on won ones. */
  settlement: decimal,
  /** house:fees from contract orders (the fee of every settled, non-void order). */
  fees: decimal,
  /** settlement + fees. */
  net: decimal,
});

export const dashboardHouseSchema = z.object({
  asset: z.string(),
  scale: z.number().check(z.int()),
  days: z.array(dashboardHouseDaySchema),
});

export const dashboardQueuesSchema = z.object({
  kyc: z.number().check(z.int()),
  cardDeposits: z.number().check(z.int()),
  withdrawalsUnderReview: z.number().check(z.int()),
  withdrawalsProcessing: z.number().check(z.int()),
  rentals: z.number().check(z.int()),
  loansUnderReview: z.number().check(z.int()),
  loansAwaitingDisbursement: z.number().check(z.int()),
});
export type DashboardQueues = z.infer<typeof dashboardQueuesSchema>;

export const dashboardObligationSchema = z.object({
  asset: z.string(),
  scale: z.number().check(z.int()),
  /** Sum of every user's locked balance (withdrawals, orders, subscriptions… all of it). */
  usersLocked: decimal,
  openOrders: z.number().check(z.int()),
  /** Open contract orders' stakes and fees (locked until settlement). */
  openStakes: decimal,
  openFees: decimal,
  /** What open orders would pay if every one won: stake × (1 + rate). */
  openMaxPayouts: decimal,
});

export const LEDGER_CHECK_STATUSES = ['ok', 'violations', 'error'] as const;
export type LedgerCheckStatus = (typeof LEDGER_CHECK_STATUSES)[number];

export const ledgerCheckSchema = z.object({
  id: z.string(),
  status: z.enum(LEDGER_CHECK_STATUSES),
  startedAt: z.iso.datetime(),
  durationMs: z.number().check(z.int()),
  /** `schedule`, or the operator who asked for it. */
  trigger: z.string(),
  violations: z.array(z.object({ rule: z.string(), detail: z.string() })),
});
export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;

export const dashboardSchema = z.object({
  generatedAt: z.iso.datetime(),
  from: day,
  to: day,
  flows: z.array(dashboardFlowsSchema),
  house: dashboardHouseSchema,
  queues: dashboardQueuesSchema,
  obligations: z.array(dashboardObligationSchema),
  /** Null until the first check has run. */
  ledgerCheck: z.nullable(ledgerCheckSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
