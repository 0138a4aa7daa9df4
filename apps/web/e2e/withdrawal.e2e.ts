import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorByCli, operatorApiLogin } from '../../admin/e2e/operator.ts';
import { PHONE, launchBrowser, outboxCode, screenshot } from './browser.ts';

/**
 * The withdrawal journey in Chromium at 390×844: set the withdrawal password, link a
 * card, request a crypto withdrawal, an operator approves and completes it through the
 * admin API, the history shows success with the txid; then every screen in zh_CN.
 *
 * Withdrawals need KYC (spec §5): the demo account has passed it (demo mode seeds it
 * verified, as "Demo Trader", the name its card carries). This file runs its own server on a
 * fresh PostgreSQL database; everything goes through the product: the demo account's seeded
 * funds and identity, the screens, the operator API.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PG_URL = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEMO = { email: 'demo@tradewind.app', password: 'demo-pass-2026' };
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TXID = 'f3b1c7e2a9d8405b6c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c';

function databaseUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const dbName = `tw_e2e_wd_${crypto.randomBytes(5).toString('hex')}`;
let server: ChildProcess | undefined;
let serverLog = '';
let baseUrl = '';
let operator = { token: '' };
let browser: Browser;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const env = { ...process.env, DATABASE_URL: databaseUrl(dbName), LOG_LEVEL: 'silent' };
  // The server's own CLI creates the install's first admin (and migrates the new database).
  const reviewer = createOperatorByCli(root, env, 'e2e-withdrawals', 'admin');
  const port = await freePort();
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_MODE: 'true',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => (serverLog += chunk));
  server.stderr?.on('data', (chunk) => (serverLog += chunk));
  baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${serverLog}`);
    const healthy = await fetch(`${baseUrl}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  operator = { token: await operatorApiLogin(baseUrl, reviewer) };
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});

async function api<T>(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  body?: unknown,
): Promise<{ code: number; message: string; data: T }> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { code: number; message: string; data: T };
}

const visible = (page: Page, text: string | RegExp) =>
  page
    .getByText(text)
    .first()
    .isVisible()
    .catch(() => false);

async function noSidewaysScroll(page: Page, label: string) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    label,
  ).toBeLessThanOrEqual(PHONE.width);
}

describe('withdrawal journey', () => {
  it(
    'password → card → crypto withdrawal → operator approves and completes → history shows success with the txid',
    { timeout: 180_000 },
    async () => {
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: 'en-US',
      });
      const page = await context.newPage();

      // Sign in as the demo account (seeded with 10000 USDT in demo mode).
      await page.goto('/Login');
      await page.locator('input[autocomplete="email"]').fill(DEMO.email);
      await page.locator('input[type="password"]').fill(DEMO.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${baseUrl}/`);
      const token = (await page.evaluate(() => localStorage.getItem('token'))) as string;

      // The demo account has passed KYC (demo mode keeps trying easy); before a withdrawal
      // password is set, the withdrawal screen says what is missing.
      await page.goto('/Withdrawal');
      await expect
        .poll(() => visible(page, 'Withdrawal password not set. Please set it first.'))
        .toBe(true);
      expect(await visible(page, 'Complete identity verification first.')).toBe(false);
      await screenshot(page, 'en-Withdrawal-not-ready');

      // Trying anyway: the server says the password is missing and the client takes the user to set it.
      await page.getByPlaceholder('Paste a TRC20 address').fill(TRON);
      await page.getByPlaceholder('Minimum 10').fill('25.5');
      await page.getByPlaceholder('6 digits', { exact: true }).fill('111111');
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await page.waitForURL(/\/WithdrawPassword\?back=%2FWithdrawal$/);
      await expect
        .poll(() => visible(page, 'Withdrawal password not set. Please set it first.'))
        .toBe(true);

      // Set it with the login password; a too-simple one is refused under the field first.
      await expect.poll(() => visible(page, 'Not set')).toBe(true);
      await page.getByPlaceholder('Enter your login password').fill(DEMO.password);
      await page.getByPlaceholder('6 digits', { exact: true }).fill('123456');
      await page.getByPlaceholder('Enter the 6 digits again').fill('123456');
      await page.getByRole('button', { name: 'Set password' }).click();
      await expect
        .poll(() =>
          visible(page, 'Too easy to guess: avoid repeated digits and runs such as 123456.'),
        )
        .toBe(true);
      await page.getByPlaceholder('6 digits', { exact: true }).fill(PIN);
      await page.getByPlaceholder('Enter the 6 digits again').fill(PIN);
      await screenshot(page, 'en-WithdrawPassword');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(`${baseUrl}/Withdrawal`);
      expect(
        (await api<{ withdraw: { set: boolean } }>('GET', '/api/v1/money-passwords', token)).data
          .withdraw.set,
      ).toBe(true);

      // The My menu reaches both password screens.
      await page.goto('/My');
      await page.getByText('Trading password').click();
      await page.waitForURL(`${baseUrl}/TradePassword`);
      await expect.poll(() => visible(page, 'Not set')).toBe(true);
      await screenshot(page, 'en-TradePassword');
      // The trading password with a code sent to the account's own email instead.
      await page.getByText('Verification code', { exact: true }).click();
      await expect.poll(() => visible(page, 'Verification code (de***@tradewind.app)')).toBe(true);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByPlaceholder('6-digit code').fill(await outboxCode(baseUrl, DEMO.email));
      await page.getByPlaceholder('6 digits', { exact: true }).fill('907153');
      await page.getByPlaceholder('Enter the 6 digits again').fill('907153');
      await screenshot(page, 'en-TradePassword-code');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(`${baseUrl}/My`);
      expect(
        (await api<{ trade: { set: boolean } }>('GET', '/api/v1/money-passwords', token)).data.trade
          .set,
      ).toBe(true);
      await page.goto('/My');
      await page.getByText('Withdrawal password').click();
      await page.waitForURL(`${baseUrl}/WithdrawPassword`);
      await expect.poll(() => visible(page, 'Change password')).toBe(true);

      // Link a bank card.
      await page.goto('/Card');
      await expect.poll(() => visible(page, 'No bank card linked yet')).toBe(true);
      await screenshot(page, 'en-Card-empty');
      await page.getByRole('button', { name: /Add bank card/ }).click();
      await page.waitForURL(`${baseUrl}/AddCard`);
      await page.getByRole('button', { name: 'Link card' }).click();
      await expect
        .poll(() =>
          page
            .locator('.adm-form-item-feedback-error', { hasText: 'This field is required.' })
            .count(),
        )
        .toBe(5);
      await page.getByPlaceholder('e.g. Harbour Bank').fill('Harbour Bank');
      await page.getByPlaceholder('Card or account number').fill('6222 0212 3456 7890');
      await page.getByPlaceholder('e.g. Central branch').fill('Central branch');
      await page.getByPlaceholder('Sort code, routing number or SWIFT').fill('HBK-001');
      await page.getByPlaceholder('Name on the account').fill('Demo Trader');
      await screenshot(page, 'en-AddCard');
      await page.getByRole('button', { name: 'Link card' }).click();
      await page.waitForURL(`${baseUrl}/Card`);
      await expect.poll(() => visible(page, '•••• 7890')).toBe(true);
      await screenshot(page, 'en-Card');

      // A crypto withdrawal: fee and amount received are shown before sending.
      await page.goto('/Withdrawal');
      await page
        .getByPlaceholder('Paste a TRC20 address')
        .fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u');
      await page.getByPlaceholder('Minimum 10').fill('25.5');
      await page.getByPlaceholder('6 digits', { exact: true }).fill(PIN);
      await expect.poll(() => visible(page, '26.5 USDT')).toBe(true);
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await expect
        .poll(() => visible(page, 'This address contains a typo: its checksum does not match.'))
        .toBe(true);
      await page.getByPlaceholder('Paste a TRC20 address').fill(TRON);
      await expect
        .poll(() =>
          visible(
            page,
            'A withdrawal should arrive within 12 hours; otherwise contact customer service.',
          ),
        )
        .toBe(true);
      await noSidewaysScroll(page, '/Withdrawal');
      await screenshot(page, 'en-Withdrawal');
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await page.waitForURL(`${baseUrl}/WithdrawalHistory`);
      await expect.poll(() => visible(page, 'Under review')).toBe(true);
      const balances = await api<{ spot: { asset: string; available: string; locked: string }[] }>(
        'GET',
        '/api/v1/wallet/balances',
        token,
      );
      expect(balances.data.spot.find((s) => s.asset === 'USDT')).toMatchObject({
        available: '9973.5',
        locked: '26.5',
      });

      // A card withdrawal, which the operator rejects: the reason shows and the funds return.
      await page.goto('/CardWithdrawal');
      await expect.poll(() => visible(page, /Harbour Bank •••• 7890/)).toBe(true);
      await page.getByPlaceholder('Minimum 10').fill('10');
      await page.getByPlaceholder('6 digits', { exact: true }).fill(PIN);
      await noSidewaysScroll(page, '/CardWithdrawal');
      await screenshot(page, 'en-CardWithdrawal');
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await page.waitForURL(`${baseUrl}/WithdrawalHistory`);

      // The operator works the queue through the admin API.
      const opToken = operator.token;
      const queue = await api<{ items: { id: string; kind: string; amount: string }[] }>(
        'GET',
        '/api/admin/v1/withdrawals/queue',
        opToken,
      );
      const cryptoItem = queue.data.items.find((i) => i.kind === 'crypto' && i.amount === '25.5');
      const card = queue.data.items.find((i) => i.kind === 'card' && i.amount === '10');
      if (!cryptoItem || !card) throw new Error(`queue: ${JSON.stringify(queue)}`);
      expect(
        (
          await api('POST', '/api/admin/v1/withdrawals/review', opToken, {
            id: cryptoItem.id,
            decision: 'approve',
          })
        ).code,
      ).toBe(0);
      expect(
        (
          await api('POST', '/api/admin/v1/withdrawals/complete', opToken, {
            id: cryptoItem.id,
            txid: TXID,
          })
        ).code,
      ).toBe(0);
      expect(
        (
          await api('POST', '/api/admin/v1/withdrawals/review', opToken, {
            id: card.id,
            decision: 'reject',
            reason: 'The account name does not match the verified identity.',
          })
        ).code,
      ).toBe(0);

      await page.reload();
      await expect.poll(() => visible(page, 'Success')).toBe(true);
      await expect.poll(() => visible(page, TXID)).toBe(true);
      await expect.poll(() => visible(page, 'Review failed')).toBe(true);
      await expect
        .poll(() => visible(page, 'Reason: The account name does not match the verified identity.'))
        .toBe(true);
      await noSidewaysScroll(page, '/WithdrawalHistory');
      await screenshot(page, 'en-WithdrawalHistory');
      const after = await api<{ spot: { asset: string; available: string; locked: string }[] }>(
        'GET',
        '/api/v1/wallet/balances',
        token,
      );
      expect(after.data.spot.find((s) => s.asset === 'USDT')).toMatchObject({
        available: '9973.5',
        locked: '0',
      });

      // The same screens in simplified Chinese.
      await page.evaluate(() => localStorage.setItem('lang', 'zh_CN'));
      for (const screen of [
        '/Withdrawal',
        '/CardWithdrawal',
        '/WithdrawalHistory',
        '/Card',
        '/AddCard',
        '/WithdrawPassword',
        '/TradePassword',
        '/My',
      ]) {
        await page.goto(screen);
        await page.waitForLoadState('networkidle');
        await noSidewaysScroll(page, `zh_CN ${screen}`);
        await screenshot(page, `zh_CN-${screen.slice(1)}`);
      }
      await page.goto('/WithdrawalHistory');
      await expect.poll(() => visible(page, '成功')).toBe(true);
      await expect.poll(() => visible(page, '审核未通过')).toBe(true);
      await page.goto('/Withdrawal');
      await expect
        .poll(() => visible(page, '提现预计于 12 小时内到账，超时请联系客服。'))
        .toBe(true);
      await context.close();
    },
  );
});
