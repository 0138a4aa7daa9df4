import type { Language } from '@tradewind/contract/languages';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import type { AssetCode } from '@tradewind/contract/wallet';
import {
  CARD_WITHDRAWAL_ASSET,
  type CardWithdrawalRequest,
  type CryptoWithdrawalRequest,
  WITHDRAWAL_STATUS,
  type Withdrawal,
  type WithdrawalKind,
} from '@tradewind/contract/withdrawal';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { BankCardRow } from '../bank-card/tables.ts';
import { findBankCard, listBankCards } from '../bank-card/service.ts';
import { type Ledger, type PostingSpec, getAssetSettings, userAccount } from '../ledger/service.ts';
import { requireMoneyPassword, verifyMoneyPassword } from '../money-password/service.ts';
import {
  assertWithdrawalsUnlocked,
  precheckWithdrawalSecondFactor,
  requireWithdrawalSecondFactor,
} from '../security/service.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import { amountOf } from '../wallet/service.ts';
import { toWithdrawal } from './service.ts';
import { type WithdrawalRow, withdrawals } from './tables.ts';
import { requireKyc } from '../kyc/service.ts';

/**
 * A user's withdrawal request, crypto to an address or USDT to a linked bank card: one flow,
 * the destination its only parameter. Two steps, because the withdrawal password must be
 * checked in a transaction of its own (a wrong attempt counts even though the withdrawal
 * then rolls back) while the rest holds in the money transaction:
 *
 * - `precheckWithdrawal`, before the transaction, on every attempt (replays too): refuses
 *   early what would be refused anyway, so such a request costs no password attempt, then
 *   verifies the password;
 * - `requestWithdrawal`, in the transaction: checks the lock and the request again (either
 *   may have changed since), spends the second factor, writes the row and locks amount + fee.
 *
 * `requestWithdrawal` refuses a request `precheckWithdrawal` has not passed, so no caller can
 * move money without the password, the lock or the second factor. Errors: WITHDRAWALS_LOCKED,
 * KYC_REQUIRED, ACCOUNT_FROZEN, WITHDRAW_PASSWORD_NOT_SET, BANK_CARD_REQUIRED, NOT_FOUND,
 * ASSET_UNAVAILABLE, AMOUNT_PRECISION and WITHDRAWAL_BELOW_MINIMUM (field `amount`),
 * TWO_FACTOR_REQUIRED, TWO_FACTOR_CODE_INVALID and TWO_FACTOR_CODE_REUSED (field `totpCode`),
 * MONEY_PASSWORD_INCORRECT (field `password`), MONEY_PASSWORD_LOCKED, INSUFFICIENT_BALANCE.
 */

export type WithdrawalRequest =
  | { kind: 'crypto'; input: CryptoWithdrawalRequest }
  | { kind: 'card'; input: CardWithdrawalRequest };

export interface WithdrawalRequestDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
}

/** Who asks: the signed-in user, and the language a refusal is worded in. */
export interface Requester {
  userId: number;
  lang: Language;
}

/**
 * The inputs whose password `precheckWithdrawal` verified. Keyed by the parsed body, which is
 * the same object in a route's precheck and in its handler (and in a retried attempt).
 */
const passwordVerified = new WeakSet<CryptoWithdrawalRequest | CardWithdrawalRequest>();

/** Outside the money transaction: the early refusals, then the withdrawal password. */
export async function precheckWithdrawal(
  deps: Pick<WithdrawalRequestDeps, 'db' | 'clock'>,
  who: Requester,
  request: WithdrawalRequest,
): Promise<void> {
  await assertWithdrawalsUnlocked(deps.db, who.userId, deps.clock.now(), who.lang);
  await acceptedRequest(deps.db, who.userId, request);
  await precheckWithdrawalSecondFactor(deps.db, who.userId, request.input.totpCode);
  await verifyMoneyPassword(deps, who.userId, 'withdraw', request.input.password);
  passwordVerified.add(request.input);
}

/** In the money route's transaction: the row and the lock of amount + fee, together or not at all. */
export async function requestWithdrawal(
  deps: Pick<WithdrawalRequestDeps, 'clock' | 'ledger'>,
  tx: Tx,
  who: Requester,
  request: WithdrawalRequest,
): Promise<Withdrawal> {
  if (!passwordVerified.has(request.input))
    throw new Error('a withdrawal request reached its transaction without precheckWithdrawal');
  const now = deps.clock.now();
  await assertWithdrawalsUnlocked(tx, who.userId, now, who.lang);
  await requireWithdrawalSecondFactor(tx, who.userId, request.input.totpCode, now);
  const { destination, amount, fee } = await acceptedRequest(tx, who.userId, request);
  const row = await insertRequest(deps.ledger, tx, now, {
    userId: who.userId,
    ...destination.values,
    amount,
    fee,
  });
  return toWithdrawal(row, destination.card);
}

/* The checks on the request itself */

interface Destination {
  values: {
    kind: WithdrawalKind;
    asset: AssetCode;
    network: string | null;
    address: string | null;
    cardId: number | null;
  };
  card: BankCardRow | null;
}

/**
 * In the order a user meets them: identity verified (and not frozen), a withdrawal password
 * set, the destination, the amount. The same list runs before the password is tried and again
 * in the transaction.
 */
async function acceptedRequest(
  db: Executor,
  userId: number,
  request: WithdrawalRequest,
): Promise<{ destination: Destination; amount: bigint; fee: bigint }> {
  await requireVerified(db, userId);
  await requireMoneyPassword(db, userId, 'withdraw');
  const destination = await destinationOf(db, userId, request);
  const { amount, fee } = await amountAndFee(
    db,
    destination.values.asset,
    request.input.amount,
    request.input.fee,
  );
  return { destination, amount, fee };
}

/** spec §5: KYC before any withdrawal; a frozen account moves nothing. */
async function requireVerified(db: Executor, userId: number): Promise<void> {
  await assertCanMoveMoney(db, userId);
  await requireKyc(db, userId);
}

async function destinationOf(
  db: Executor,
  userId: number,
  request: WithdrawalRequest,
): Promise<Destination> {
  if (request.kind === 'card') {
    const card = await cardFor(db, userId, request.input.cardId);
    return {
      values: {
        kind: 'card',
        asset: CARD_WITHDRAWAL_ASSET,
        network: null,
        address: null,
        cardId: card.id,
      },
      card,
    };
  }
  const { asset, network, address } = request.input;
  return { values: { kind: 'crypto', asset, network, address, cardId: null }, card: null };
}

/** The card a card withdrawal goes to: BANK_CARD_REQUIRED with none linked, NOT_FOUND for any id not the user's. */
async function cardFor(db: Executor, userId: number, cardId: string): Promise<BankCardRow> {
  const card = await findBankCard(db, userId, Number(cardId));
  if (card) return card;
  if ((await listBankCards(db, userId)).length === 0)
    throw new AppError('BANK_CARD_REQUIRED', {}, 409);
  throw new AppError('NOT_FOUND');
}

/**
 * The amount (exact to the asset's decimals, at least the minimum) and the fee, from the
 * `assets` table; a fee the user was shown that is no longer the fee refuses the request.
 */
async function amountAndFee(
  db: Executor,
  asset: AssetCode,
  text: string,
  feeShown: string | undefined,
): Promise<{ amount: bigint; fee: bigint }> {
  const settings = await getAssetSettings(db, asset);
  if (!settings?.withdrawEnabled) throw new AppError('ASSET_UNAVAILABLE', {}, 422, 'asset');
  const amount = amountOf(text, asset);
  if (amount < settings.withdrawMinMinor) {
    throw new AppError(
      'WITHDRAWAL_BELOW_MINIMUM',
      { minimum: formatAmount(settings.withdrawMinMinor, settings.scale), asset },
      422,
      'amount',
    );
  }
  if (
    feeShown !== undefined &&
    parseAmount(feeShown, settings.scale) !== settings.withdrawFeeMinor
  ) {
    throw new AppError(
      'WITHDRAWAL_FEE_CHANGED',
      { fee: formatAmount(settings.withdrawFeeMinor, settings.scale), asset },
      409,
    );
  }
  return { amount, fee: settings.withdrawFeeMinor };
}

/* The row and the ledger */

/** amount + fee from available to locked, each its own pair of postings so the funds detail explains the fee. */
function lockPostings(
  userId: number,
  asset: AssetCode,
  amount: bigint,
  fee: bigint,
): PostingSpec[] {
  const account = userAccount(userId, 'spot', asset);
  const postings: PostingSpec[] = [
    { account, bucket: 'available', amount: -amount, type: 'withdraw' },
    { account, bucket: 'locked', amount, type: 'withdraw' },
  ];
  if (fee > 0n) {
    postings.push(
      { account, bucket: 'available', amount: -fee, type: 'withdraw_fee' },
      { account, bucket: 'locked', amount: fee, type: 'withdraw_fee' },
    );
  }
  return postings;
}

async function insertRequest(
  ledger: Ledger,
  tx: Tx,
  now: Date,
  values: Destination['values'] & { userId: number; amount: bigint; fee: bigint },
): Promise<WithdrawalRow> {
  const [row] = await tx
    .insert(withdrawals)
    .values({
      userId: values.userId,
      kind: values.kind,
      asset: values.asset,
      network: values.network,
      address: values.address,
      cardId: values.cardId,
      amountMinor: values.amount,
      feeMinor: values.fee,
      status: WITHDRAWAL_STATUS.UNDER_REVIEW,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('withdrawal insert returned no row');
  // INSUFFICIENT_BALANCE here rolls back the row with it.
  await ledger.post(tx, now, {
    kind: 'withdrawal',
    reference: `withdrawal:${row.id}:request`,
    userId: values.userId,
    postings: lockPostings(values.userId, values.asset, values.amount, values.fee),
  });
  return row;
}
