import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from './browser.ts';
import { PASSWORD, registerByApi } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** RFC 6238 in a few lines, independent of the server's code: what an authenticator app computes. */
function totp(secretBase32: string, atMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = crypto.createHmac('sha1', key).update(counter).digest();
  const offset = (mac[19] ?? 0) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const TEXT = {
  en: {
    tag: 'en',
    title: 'Security',
    twoFactor: 'Two-factor authentication',
    off: 'Off',
    on: 'On',
    start: 'Set up',
    enable: 'Turn on',
    saved: 'I have saved them',
    paused: 'withdrawals are paused until',
    signOut: 'Sign out',
    secondStep: 'Enter the code from your authenticator app',
    verify: 'Verify and sign in',
    login: 'Sign in',
    devices: 'Signed-in devices',
    history: 'Sign-in history',
    signedIn: 'Signed in',
    antiPhishing: 'Anti-phishing code',
    save: 'Save',
    antiPhishingLine: 'Your anti-phishing code: Blue42Fox.',
  },
  de: {
    tag: 'de',
    title: 'Sicherheit',
    twoFactor: 'Zwei-Faktor-Authentifizierung',
    off: 'Aus',
    on: 'An',
    start: 'Einrichten',
    enable: 'Einschalten',
    saved: 'Ich habe sie gespeichert',
    paused: 'Auszahlungen bis',
    signOut: 'Abmelden',
    secondStep: 'Geben Sie den Code aus Ihrer Authenticator-App ein',
    verify: 'Bestätigen und anmelden',
    login: 'Anmelden',
    devices: 'Angemeldete Geräte',
    history: 'Anmeldeverlauf',
    signedIn: 'Angemeldet',
    antiPhishing: 'Anti-Phishing-Code',
    save: 'Speichern',
    antiPhishingLine: 'Ihr Anti-Phishing-Code: Blue42Fox.',
  },
} as const;

const SHOTS = '/work/shots';
async function shot(page: Page, name: string) {
  await screenshot(page, name);
  if (fs.existsSync(SHOTS))
    await page.screenshot({ path: path.join(SHOTS, `security-${name}.png`), fullPage: true });
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

let counter = 0;
const uniqueEmail = () => `security${Date.now()}${++counter}@example.com`;

describe.each(['en', 'de'] as const)('security centre in %s', (language) => {
  it('enrol two-factor with the QR secret, sign out, sign in again with a code from the app', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const email = uniqueEmail();
    const session = await registerByApi(baseUrl, email);
    await signIn(page, session, language);

    await page.goto('/Security');
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(text.title);
    const twoFactorItem = page.locator('.adm-list-item', { hasText: text.twoFactor }).first();
    await expect.poll(() => twoFactorItem.textContent()).toContain(text.off);
    expect(await page.getByText(text.devices).count()).toBe(1);
    expect(await page.getByTestId('session-row').count()).toBe(1);
    await shot(page, `${language}-Security`);
    await noSidewaysScroll(page);

    // The anti-phishing code: set on the page, then printed in the next email we send.
    await page.locator('.adm-list-item', { hasText: text.antiPhishing }).first().click();
    await page.locator('input[autocomplete="off"]').fill('Blue42Fox');
    await shot(page, `${language}-Security-anti-phishing`);
    await page.getByRole('button', { name: text.save, exact: true }).click();
    await expect.poll(() => page.getByTestId('anti-phishing-code').textContent()).toBe('Blue42Fox');
    await apiCall(
      baseUrl,
      'POST',
      '/api/v1/auth/codes',
      undefined,
      { channel: 'email', account: email, purpose: 'reset_password' },
      { 'accept-language': text.tag },
    );
    const outbox = await apiCall<{ items: { body: string }[] }>(
      baseUrl,
      'GET',
      `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`,
    );
    expect(outbox.data.items[0]?.body).toContain(text.antiPhishingLine);

    await twoFactorItem.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/TwoFactor');
    await page.getByRole('button', { name: text.start }).click();
    const secretEl = page.getByTestId('totp-secret');
    await expect.poll(() => secretEl.count()).toBe(1);
    expect(await page.getByTestId('totp-qr').count()).toBe(1);
    const secret = (await secretEl.getAttribute('data-secret')) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // What is shown for typing by hand is the same secret, in groups of four.
    expect((await secretEl.textContent())?.replace(/\s/g, '')).toBe(secret);
    await shot(page, `${language}-TwoFactor-enrol`);
    await noSidewaysScroll(page);

    await page.locator('input[autocomplete="one-time-code"]').fill(totp(secret, Date.now()));
    await page.getByRole('button', { name: text.enable }).click();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    await shot(page, `${language}-TwoFactor-recovery-codes`);
    await noSidewaysScroll(page);

    await page.getByRole('button', { name: text.saved }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Security');
    await expect.poll(() => twoFactorItem.textContent()).toContain(text.on);
    // Withdrawals pause for 24 h, and the page says so and why.
    await expect
      .poll(() => page.getByTestId('withdrawal-lock').textContent())
      .toContain(text.paused);
    await shot(page, `${language}-Security-2fa-on`);
    const state = await apiCall<{
      twoFactorEnabled: boolean;
      withdrawalLock: { reason: string } | null;
    }>(baseUrl, 'GET', '/api/v1/security', session.token);
    expect(state.data).toMatchObject({
      twoFactorEnabled: true,
      withdrawalLock: { reason: 'two_factor_enabled' },
    });

    await page.goto('/Withdrawal');
    await expect.poll(() => page.getByTestId('withdrawal-lock').count()).toBe(1);
    await shot(page, `${language}-Withdrawal-paused`);

    // Sign out from My.
    await page.goto('/My');
    await page.getByRole('button', { name: text.signOut }).last().click();
    await page.locator('.adm-dialog-footer button', { hasText: text.signOut }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The password alone is not enough: the second step asks for the app's code.
    await page.locator('input[autocomplete="email"]').fill(email);
    await page.locator('input[autocomplete="current-password"]').fill(PASSWORD);
    await page.getByRole('button', { name: text.login, exact: true }).click();
    await expect.poll(() => page.getByText(text.secondStep).count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await shot(page, `${language}-Login-second-step`);
    await noSidewaysScroll(page);

    // The server accepts one step of clock drift either way, so the next step's code is
    // valid now, and it is not the step enrolment already spent (codes are single-use).
    await page
      .locator('input[autocomplete="one-time-code"]')
      .fill(totp(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: text.verify }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The new session's history shows the two steps of this sign-in.
    const history = await apiCall<{ signIns: { result: string; method: string }[] }>(
      baseUrl,
      'GET',
      '/api/v1/security',
      token ?? '',
    );
    expect(history.data.signIns.slice(0, 2).map((e) => [e.result, e.method])).toEqual([
      ['success', 'totp'],
      ['awaiting_code', 'password'],
    ]);
    await page.goto('/Security');
    await expect.poll(() => page.getByTestId('sign-in-row').count()).toBe(2);
    expect(await page.getByText(text.history).count()).toBe(1);
    expect(await page.getByTestId('sign-in-row').first().textContent()).toContain(text.signedIn);
    await shot(page, `${language}-Security-history`);

    // Two-factor on: the screen offers to turn it off with a code, and counts the recovery codes.
    await page.goto('/TwoFactor');
    await expect.poll(() => page.locator('input[autocomplete="one-time-code"]').count()).toBe(1);
    expect(await page.getByText('10').count()).toBeGreaterThan(0);
    await shot(page, `${language}-TwoFactor-on`);
    await context.close();
  }, 120_000);
});
