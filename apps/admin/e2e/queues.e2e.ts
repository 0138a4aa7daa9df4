import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import {
  PHONE,
  apiCall,
  launchBrowser,
  outboxCode,
  screenshot,
  signIn,
  waitFor,
} from '../../web/e2e/browser.ts';
import { uploadBandedPng } from '../../web/e2e/images.ts';
import {
  DESKTOP,
  type OperatorCredentials,
  createOperatorAs,
  operatorApi,
  operatorApiLogin,
  signInOperator,
} from './operator.ts';

/**
 * The review queues in the operator console (issue 7): an operator signs in with TOTP,
 * approves a KYC submission a user sent through the user API, rejects the user's withdrawal
 * with a reason, gives the second approval a large withdrawal needs; the user, on the phone
 * client, sees the funds released and the reason. Every queue page in English and Chinese.
 */

const baseUrl = suiteServer().baseUrl;
const PASSWORD = 'e2e-password-1';
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const REASON = 'The destination address is on a sanctions list.';

let browser: Browser;
let reviewer: OperatorCredentials;
let firstApprover: OperatorCredentials;
/** A TOTP code signs in once: each operator signs in once in this file, hence one per console session. */
let firstToken: string;
const viewers: Partial<Record<'en' | 'zh-CN', OperatorCredentials>> = {};
beforeAll(async () => {
  browser = await launchBrowser();
  const admin = suiteServer().operator.token;
  reviewer = await createOperatorAs(baseUrl, admin, 'reviewer');
  firstApprover = await createOperatorAs(baseUrl, admin, 'reviewer');
  firstToken = await operatorApiLogin(baseUrl, firstApprover);
  viewers.en = await createOperatorAs(baseUrl, admin, 'reviewer');
  viewers['zh-CN'] = await createOperatorAs(baseUrl, admin, 'reviewer');
});
afterAll(() => browser?.close());

type Session = { token: string; uid: string };
const key = () => crypto.randomUUID();

const api = <T = unknown>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, path, token, body, headers);

async function register(): Promise<Session> {
  const email = `e2e-queues-${Date.now()}-${crypto.randomBytes(2).toString('hex')}@example.com`;
  await api('POST', '/api/v1/auth/codes', undefined, {
    channel: 'email',
    account: email,
    purpose: 'register',
  });
  const code = await outboxCode(baseUrl, email);
  const reply = await api<Session>('POST', '/api/v1/auth/register', undefined, {
    mode: 'code',
    channel: 'email',
    account: email,
    code,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(reply.code, reply.message).toBe(0);
  return reply.data;
}

/** A private upload through the user API, as the phone client sends it. */
const uploadPhoto = (
  user: Session,
  purpose: 'kyc' | 'loan' | 'card_deposit',
  colours: [number, number, number][],
) => uploadBandedPng(baseUrl, user.token, purpose, colours);

/** USDT into the user's spot account by a simulated-chain deposit (demo mode), as the deposit e2e does. */
async function deposit(user: Session, usdt: string): Promise<void> {
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token))
    .data;
  expect(
    (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: usdt })).code,
  ).toBe(0);
  await waitFor(
    'the deposit to be seen',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
        .length > 0,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  await waitFor('the deposit to be credited', async () => {
    const spot = (
      await api<{ spot: { asset: string; available: string }[] }>(
        'GET',
        '/api/v1/wallet/balances',
        user.token,
      )
    ).data.spot;
    return spot.find((s) => s.asset === 'USDT')?.available === usdt;
  });
}

async function withdraw(user: Session, amount: string): Promise<string> {
  const reply = await api<{ id: string }>(
    'POST',
    '/api/v1/withdrawals',
    user.token,
    { asset: 'USDT', network: 'TRC20', address: TRON, amount, password: PIN },
    { 'idempotency-key': key() },
  );
  expect(reply.code, reply.message).toBe(0);
  return reply.data.id;
}

const spotUsdt = async (user: Session) =>
  (
    await api<{ spot: { asset: string; available: string; locked: string }[] }>(
      'GET',
      '/api/v1/wallet/balances',
      user.token,
    )
  ).data.spot.find((s) => s.asset === 'USDT');

const visible = (page: Page, text: string | RegExp) =>
  page
    .getByText(text)
    .first()
    .isVisible()
    .catch(() => false);

async function consolePage(language: 'en' | 'zh-CN', operator: OperatorCredentials) {
  const context = await browser.newContext({
    viewport: DESKTOP,
    baseURL: baseUrl,
    locale: language,
  });
  const page = await context.newPage();
  await signInOperator(page, baseUrl, operator, language);
  return { context, page };
}

const QUEUES = ['kyc', 'card-deposits', 'withdrawals', 'mining', 'loans'] as const;

describe('review queues', () => {
  it(
    'approve a KYC, reject a withdrawal with a reason, second-approve a large one; the user sees the funds released and the reason',
    { timeout: 240_000 },
    async () => {
      // A user sends their identity documents through the user API.
      const user = await register();
      const photos = {
        frontFileId: await uploadPhoto(user, 'kyc', [
          [22, 82, 240],
          [240, 240, 240],
          [200, 60, 60],
        ]),
        backFileId: await uploadPhoto(user, 'kyc', [
          [40, 40, 40],
          [230, 200, 60],
        ]),
        faceFileId: await uploadPhoto(user, 'kyc', [
          [250, 220, 190],
          [120, 80, 50],
          [60, 60, 90],
        ]),
      };
      const submitted = await api<{ submission: { id: string } }>(
        'POST',
        '/api/v1/kyc',
        user.token,
        {
          country: 'DE',
          lastName: 'Weber',
          firstName: 'Lena',
          documentType: 'id_card',
          documentNumber: 'L01X00T47',
          ...photos,
        },
      );
      expect(submitted.code, submitted.message).toBe(0);
      const kycId = submitted.data.submission.id;

      // The operator signs in with TOTP and approves it from the KYC queue.
      const { context, page } = await consolePage('en', reviewer);
      await page.getByRole('link', { name: 'Identity verification' }).click();
      await page.getByTestId(`kyc-row-${kycId}`).click();
      const drawer = page.getByTestId('kyc-drawer');
      await expect.poll(() => drawer.getByText('Weber Lena').first().isVisible()).toBe(true);
      await expect.poll(() => drawer.locator('img').count()).toBe(3);
      expect(await drawer.getByTestId('queue-user-link').getAttribute('href')).toBe(
        `/admin/users/${user.uid}`,
      );
      await expect.poll(() => drawer.getByText('Not verified').first().isVisible()).toBe(true);
      await screenshot(page, 'admin-queues-kyc-drawer-en');
      await drawer.getByTestId('decision-approve').click();
      // Approval asks first: the user, the name, and that it unlocks financial actions.
      await expect
        .poll(() => page.getByTestId('money-confirm').textContent())
        .toContain('unlocks withdrawals');
      expect(await page.getByTestId('money-user').textContent()).toBe(user.uid);
      await page.getByTestId('money-confirm-ok').click();
      await expect.poll(() => page.getByTestId(`kyc-row-${kycId}`).count()).toBe(0);
      expect(
        (await api<{ verified: boolean }>('GET', '/api/v1/kyc', user.token)).data.verified,
      ).toBe(true);

      // Verified now, the user sets a withdrawal password, is funded, and asks for two withdrawals.
      const pin = await api('POST', '/api/v1/money-passwords', user.token, {
        kind: 'withdraw',
        proof: 'login_password',
        loginPassword: PASSWORD,
        password: PIN,
        confirmPassword: PIN,
      });
      expect(pin.code, pin.message).toBe(0);
      await deposit(user, '10600');
      const small = await withdraw(user, '30');
      const large = await withdraw(user, '10500');
      expect(await spotUsdt(user)).toMatchObject({ available: '68', locked: '10532' });
      // Another reviewer gives the large one its first approval.
      const first = await operatorApi<{ status: string; awaitingSecondApproval: boolean }>(
        baseUrl,
        firstToken,
        'POST',
        '/withdrawals/review',
        { id: large, decision: 'approve' },
      );
      expect(first.data).toMatchObject({ status: 'under_review', awaitingSecondApproval: true });

      // The withdrawal queue: reject the small one with a reason.
      await page.getByRole('link', { name: 'Withdrawals' }).click();
      await expect
        .poll(() => page.getByTestId(`withdrawal-row-${large}`).textContent())
        .toContain(`Needs second approval (first: ${firstApprover.username})`);
      await page.getByTestId(`withdrawal-row-${small}`).click();
      await page.getByTestId('withdrawal-drawer').getByTestId('decision-reject').click();
      // No reason, no rejection.
      await page.getByTestId('decision-reject-confirm').click();
      await expect.poll(() => visible(page, 'A reason is required to reject.')).toBe(true);
      await page.getByTestId('decision-reason').fill(REASON);
      await page.getByTestId('decision-reject-confirm').click();
      await expect.poll(() => page.getByTestId(`withdrawal-row-${small}`).count()).toBe(0);

      // The large one: the drawer says who approved first; this operator gives the second approval.
      await page.getByTestId(`withdrawal-row-${large}`).click();
      const second = page.getByTestId('withdrawal-drawer');
      await expect
        .poll(() => second.getByTestId('withdrawal-second-approval').textContent())
        .toContain(`Needs second approval (first: ${firstApprover.username})`);
      await page.waitForTimeout(500);
      await screenshot(page, 'admin-queues-withdrawal-second-approval-en');
      await second.getByRole('button', { name: 'Give the second approval' }).click();
      await expect.poll(() => page.getByTestId('money-receives').textContent()).toBe('10500 USDT');
      await page.getByTestId('money-confirm-ok').click();
      await expect.poll(() => page.getByTestId(`withdrawal-row-${large}`).count()).toBe(0);
      await page.getByTestId('withdrawal-status').getByText('To send (processing)').click();
      await expect.poll(() => page.getByTestId(`withdrawal-row-${large}`).count()).toBe(1);
      await page.getByTestId(`withdrawal-row-${large}`).click();
      await expect.poll(() => page.getByTestId('withdrawal-txid').isVisible()).toBe(true);
      await expect
        .poll(() => page.getByTestId('withdrawal-drawer').textContent())
        .toContain(`${firstApprover.username} + ${reviewer.username}`);
      // The drawer's slide-in has ended.
      await page.waitForTimeout(500);
      await screenshot(page, 'admin-queues-withdrawal-processing-en');
      await context.close();

      // The audit log has both approvals, by different operators, and the rejection with its reason.
      const audit = await operatorApi<{
        items: { action: string; operator: string; targetId: string; reason: string | null }[];
      }>(baseUrl, suiteServer().operator.token, 'GET', '/audit?targetType=withdrawal');
      const actions = audit.data.items
        .filter((e) => e.targetId === small || e.targetId === large)
        .map((e) => [e.targetId, e.action, e.operator, e.reason]);
      expect(actions).toEqual(
        expect.arrayContaining([
          [small, 'withdrawal.reject', reviewer.username, REASON],
          [large, 'withdrawal.approve_first', firstApprover.username, null],
          [large, 'withdrawal.approve', reviewer.username, null],
        ]),
      );

      // The user, on the phone: the rejected withdrawal's funds are available again, and the reason shows.
      expect(await spotUsdt(user)).toMatchObject({ available: '99', locked: '10501' });
      const phone = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: 'en-US',
      });
      const userPage = await phone.newPage();
      await signIn(userPage, user, 'en');
      await userPage.goto('/WithdrawalHistory');
      await expect.poll(() => visible(userPage, 'Review failed')).toBe(true);
      await expect.poll(() => visible(userPage, `Reason: ${REASON}`)).toBe(true);
      await screenshot(userPage, 'admin-queues-user-withdrawal-history-en');
      await userPage.goto('/Withdrawal');
      await expect.poll(() => visible(userPage, /Available 99(\.0+)? USDT/)).toBe(true);
      await screenshot(userPage, 'admin-queues-user-withdrawal-en');
      await phone.close();
    },
  );

  it(
    'every queue page, with items waiting, in English and Chinese',
    { timeout: 240_000 },
    async () => {
      // Something in each queue: a KYC, a card deposit, a withdrawal awaiting its second approval, a rental, a loan.
      const pending = await register();
      await api('POST', '/api/v1/kyc', pending.token, {
        country: 'CN',
        lastName: '王',
        firstName: '小明',
        documentType: 'passport',
        documentNumber: 'E12345678',
        frontFileId: await uploadPhoto(pending, 'kyc', [
          [180, 30, 30],
          [250, 250, 250],
        ]),
        faceFileId: await uploadPhoto(pending, 'kyc', [
          [250, 220, 190],
          [60, 60, 90],
        ]),
      });
      const screenshotFileId = await uploadPhoto(pending, 'card_deposit', [
        [255, 255, 255],
        [30, 160, 90],
        [255, 255, 255],
      ]);
      expect(
        (
          await api(
            'POST',
            '/api/v1/card-deposits',
            pending.token,
            { amount: '500', screenshotFileId },
            { 'idempotency-key': key() },
          )
        ).code,
      ).toBe(0);

      // A verified user (through the queue) rents a miner, applies for a loan and asks for a large withdrawal.
      const verified = await register();
      const kyc = await api<{ submission: { id: string } }>('POST', '/api/v1/kyc', verified.token, {
        country: 'DE',
        lastName: 'Schmidt',
        firstName: 'Jonas',
        documentType: 'passport',
        documentNumber: 'C01X00T47',
        frontFileId: await uploadPhoto(verified, 'kyc', [
          [22, 82, 240],
          [240, 240, 240],
        ]),
        faceFileId: await uploadPhoto(verified, 'kyc', [
          [250, 220, 190],
          [120, 80, 50],
        ]),
      });
      expect(
        (
          await operatorApi(baseUrl, firstToken, 'POST', '/kyc/decide', {
            id: kyc.data.submission.id,
            decision: 'approve',
          })
        ).code,
      ).toBe(0);
      await deposit(verified, '12000');
      const products = (
        await api<{ items: { id: string; unitPrice: string; minInvestment: string }[] }>(
          'GET',
          '/api/v1/mining/products',
          verified.token,
        )
      ).data.items;
      const miner = products.find((p) => p.unitPrice === p.minInvestment) ?? products[0];
      if (!miner) throw new Error('no demo miners');
      const rented = await api(
        'POST',
        '/api/v1/mining/rentals',
        verified.token,
        { productId: miner.id, quantity: 1, amount: miner.unitPrice },
        { 'idempotency-key': key() },
      );
      expect(rented.code, rented.message).toBe(0);
      const loanProduct = (
        await api<{ items: { id: string; minAmount: string; periods: number[] }[] }>(
          'GET',
          '/api/v1/loans/products',
          verified.token,
        )
      ).data.items[0];
      if (!loanProduct) throw new Error('no demo loan products');
      const loan = await api(
        'POST',
        '/api/v1/loans',
        verified.token,
        {
          productId: loanProduct.id,
          amount: loanProduct.minAmount,
          periodDays: loanProduct.periods[0],
          frontFileId: await uploadPhoto(verified, 'loan', [
            [22, 82, 240],
            [240, 240, 240],
          ]),
          backFileId: await uploadPhoto(verified, 'loan', [
            [40, 40, 40],
            [230, 200, 60],
          ]),
          holdingFileId: await uploadPhoto(verified, 'loan', [
            [250, 220, 190],
            [22, 82, 240],
          ]),
        },
        { 'idempotency-key': key() },
      );
      expect(loan.code, loan.message).toBe(0);
      const pin = await api('POST', '/api/v1/money-passwords', verified.token, {
        kind: 'withdraw',
        proof: 'login_password',
        loginPassword: PASSWORD,
        password: PIN,
        confirmPassword: PIN,
      });
      expect(pin.code, pin.message).toBe(0);
      const large = await withdraw(verified, '11000');
      expect(
        (
          await operatorApi(baseUrl, firstToken, 'POST', '/withdrawals/review', {
            id: large,
            decision: 'approve',
          })
        ).code,
      ).toBe(0);

      for (const language of ['en', 'zh-CN'] as const) {
        const { context, page } = await consolePage(
          language,
          viewers[language] as OperatorCredentials,
        );
        for (const queue of QUEUES) {
          await page.goto(`/admin/queues/${queue}`);
          await page.locator('.ant-table-row').first().waitFor();
          await page.waitForLoadState('networkidle');
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
            `${queue} ${language}`,
          ).toBeLessThanOrEqual(DESKTOP.width);
          await screenshot(page, `admin-queues-${queue}-${language}`);
        }
        // The loan's drawer: photos, then approve → disburse.
        await page.goto('/admin/queues/loans');
        await page.locator('.ant-table-row').first().click();
        await expect.poll(() => page.locator('.ant-drawer img').count()).toBe(3);
        await page.waitForTimeout(500);
        await screenshot(page, `admin-queues-loans-drawer-${language}`);
        await context.close();
      }
    },
  );
});
