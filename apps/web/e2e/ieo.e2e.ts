import crypto from 'node:crypto';
import type { IeoApplication, IeoProject } from '@tradewind/contract/ieo';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import {
  type Envelope,
  PHONE,
  apiCall,
  launchBrowser,
  screenshot,
  signIn,
  waitFor,
} from './browser.ts';
import { admin, bandedPng, registerByApi } from './images.ts';

/**
 * Launchpad (/IEO, /IEOHis) against the real server and its seeded demo projects: a
 * verified, funded user opens the subscribing demo project, applies from the form, and
 * sees the application in /IEOHis with the amount locked in spot USDT, in two languages.
 * Funding (simulated chain deposit) and KYC (approved by the operator) go through the API.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let operator: string;

const api = <T>(method: 'GET' | 'POST', path: string, token?: string, body?: unknown) =>
  apiCall<T>(baseUrl, method, path, token, body);

const TEXT = {
  en: {
    tag: 'en',
    project: 'Nova Grid (demo)',
    subscribing: 'Subscribing',
    applying: 'Applying',
    submit: 'Subscribe',
    done: 'Application submitted',
    rule: 'How tokens are allocated',
    history: 'Subscription history',
    cap: 'You can apply for at most 50000 tokens.',
  },
  de: {
    tag: 'de',
    project: 'Nova Grid (Demo)',
    subscribing: 'Zeichnungsphase',
    applying: 'Zeichnung läuft',
    submit: 'Zeichnen',
    done: 'Zeichnung eingereicht',
    rule: 'So werden Token zugeteilt',
    history: 'Zeichnungsverlauf',
    cap: 'Sie können höchstens 50000 Token zeichnen.',
  },
} as const;

async function uploadPng(token: string, png: Buffer): Promise<string> {
  const form = new FormData();
  form.append('purpose', 'kyc');
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  ).json()) as Envelope<{ id: string }>;
  expect(reply.code, reply.message).toBe(0);
  return reply.data.id;
}

/** A new user with 500 USDT in spot (simulated chain deposit) and KYC approved by the operator. */
async function readyUser(language: string) {
  const user = await registerByApi(
    baseUrl,
    `ieo-${language}-${crypto.randomBytes(4).toString('hex')}@example.com`,
  );
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token))
    .data;
  expect(
    (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '500' })).code,
  ).toBe(0);
  await waitFor(
    'the deposit to be seen',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
        .length > 0,
    20_000,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  await waitFor(
    'the deposit to be credited',
    async () => (await spotUsdt(user.token))?.available === '500',
    20_000,
  );
  const [front, face] = await Promise.all([
    uploadPng(
      user.token,
      bandedPng(320, 200, [
        [22, 82, 240],
        [240, 240, 240],
      ]),
    ),
    uploadPng(
      user.token,
      bandedPng(200, 240, [
        [250, 220, 190],
        [60, 60, 90],
      ]),
    ),
  ]);
  const kyc = await api('POST', '/api/v1/kyc', user.token, {
    country: 'DE',
    lastName: 'Muster',
    firstName: 'Erika',
    documentType: 'passport',
    documentNumber: 'C01X00T47',
    frontFileId: front,
    faceFileId: face,
  });
  expect(kyc.code, kyc.message).toBe(0);
  const queue = await admin<{ items: { id: string; uid: string }[] }>(
    baseUrl,
    operator,
    'GET',
    '/kyc/queue',
  );
  const submission = queue.data.items.find((item) => item.uid === user.uid);
  expect(
    (
      await admin(baseUrl, operator, 'POST', '/kyc/decide', {
        id: submission?.id,
        decision: 'approve',
      })
    ).code,
  ).toBe(0);
  return user;
}

async function spotUsdt(token: string) {
  return (
    await api<{ spot: { asset: string; available: string; locked: string }[] }>(
      'GET',
      '/api/v1/wallet/balances',
      token,
    )
  ).data.spot.find((s) => s.asset === 'USDT');
}

beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
});
afterAll(() => browser?.close());

describe.each(['en', 'de'] as const)('launchpad in %s', (language) => {
  it('subscribe to a demo project from its page; a bad quantity is refused in place; the application shows in /IEOHis', async () => {
    const text = TEXT[language];
    const user = await readyUser(language);
    const projects = await api<{ items: IeoProject[] }>('GET', '/api/v1/ieo/projects', user.token);
    const nova = projects.data.items.find((p) => p.token === 'NOVA') as IeoProject;
    expect(nova).toBeDefined();

    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    await signIn(page, user, language);

    // The list: the three demo projects with their status labels.
    await page.goto('/IEO');
    const card = page.locator(`a[data-project-id="${nova.id}"]`);
    await expect.poll(() => card.textContent()).toContain(text.project);
    expect(await card.textContent()).toContain(text.subscribing);
    await expect.poll(() => page.locator('a[data-project-id]').count()).toBeGreaterThanOrEqual(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await screenshot(page, `${language}-IEO-list`);

    // The detail with its published rule and the form.
    await card.click();
    await expect.poll(() => page.getByText(text.rule).count()).toBe(1);
    const quantity = page.locator('input[inputmode="numeric"]');
    const price = page.locator('input[inputmode="decimal"]');
    expect(await price.inputValue()).toBe('0.05');
    await screenshot(page, `${language}-IEO-detail`);

    // Over the cap: the localized message sits under the field and nothing is locked.
    await quantity.fill('50001');
    await page.getByRole('button', { name: text.submit }).click();
    await expect.poll(() => page.getByText(text.cap).count()).toBe(1);
    expect(await spotUsdt(user.token)).toMatchObject({ available: '500', locked: '0' });
    await screenshot(page, `${language}-IEO-error`);

    // 2000 tokens at 0.05 → 100 USDT locked.
    await quantity.fill('2000');
    await expect.poll(() => page.getByTestId('ieo-amount').textContent()).toContain('100');
    await page.getByRole('button', { name: text.submit }).click();
    await expect
      .poll(() => page.locator('.adm-toast-main', { hasText: text.done }).count())
      .toBe(1);
    await expect.poll(() => page.url()).toContain('/IEOHis');
    const row = page.locator('section[data-application-id]', { hasText: text.project });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(text.applying);
    expect(await row.textContent()).toContain('2,000'.replace(',', language === 'de' ? '.' : ','));
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `${language}-IEOHis`);

    expect(await spotUsdt(user.token)).toMatchObject({ available: '400', locked: '100' });
    const history = await api<{ items: IeoApplication[] }>(
      'GET',
      '/api/v1/ieo/applications',
      user.token,
    );
    expect(history.data.items.map((a) => [a.projectId, a.quantity, a.amount, a.status])).toEqual([
      [nova.id, '2000', '100', 0],
    ]);
    await context.close();
  });
});
