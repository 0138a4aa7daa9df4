import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { admin, bandedPng, registerByApi } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let operator: string;
beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    uploaded: 'Uploaded',
    submit: 'Submit for review',
    pending: 'Under review',
    failed: 'Failed',
    passed: 'Passed',
    resubmit: 'Submit again',
    verified: 'Verified',
    required: 'This field is required.',
  },
  zh_CN: {
    tag: 'zh-CN',
    uploaded: '已上传',
    submit: '提交审核',
    pending: '审核中',
    failed: '未通过',
    passed: '已通过',
    resubmit: '重新提交',
    verified: '已认证',
    required: '此项为必填项。',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `kyc${Date.now()}${++counter}@example.com`;

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

/** The three photos: a document front, its back and a face, drawn as coloured bands. */
const PHOTOS = {
  front: bandedPng(320, 200, [
    [22, 82, 240],
    [240, 240, 240],
    [200, 60, 60],
  ]),
  back: bandedPng(320, 200, [
    [40, 40, 40],
    [230, 200, 60],
  ]),
  face: bandedPng(200, 240, [
    [250, 220, 190],
    [120, 80, 50],
    [60, 60, 90],
  ]),
};

async function fillForm(
  page: Page,
  language: keyof typeof TEXT,
  names: { last: string; first: string },
) {
  const germany =
    new Intl.DisplayNames([TEXT[language].tag], { type: 'region' }).of('DE') ?? 'Germany';
  await page.locator('.tw-select').click();
  await page.locator('.adm-popup input').fill(germany.slice(0, 3));
  await expect
    .poll(() => page.locator('.adm-check-list-item', { hasText: germany }).count())
    .toBeGreaterThan(0);
  await screenshot(page, `${language}-RealName-country`);
  await page.locator('.adm-check-list-item', { hasText: germany }).first().click();
  await expect.poll(() => page.locator('.tw-select').textContent()).toContain(germany);
  // The sheet has closed (its animation ended).
  await expect.poll(() => page.locator('.adm-popup-body').isVisible()).toBe(false);
  await page.locator('input[autocomplete="family-name"]').fill(names.last);
  await page.locator('input[autocomplete="given-name"]').fill(names.first);
  await page.locator('input[name="documentNumber"]').fill('L01X00T47');
}

async function upload(page: Page, field: keyof typeof PHOTOS) {
  await page
    .locator(`input[name="${field}"]`)
    .setInputFiles({ name: `${field}.png`, mimeType: 'image/png', buffer: PHOTOS[field] });
}

describe.each(['en', 'zh_CN'] as const)('identity verification in %s', (language) => {
  it('submit with three photos → under review → rejected with a reason → submit again → approved → verified', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const session = await registerByApi(baseUrl, uniqueEmail());
    await signIn(page, session, language);

    await page.goto('/RealName');
    await expect.poll(() => page.locator('input[name="front"]').count()).toBe(1);
    // The upload tiles are styled (a dashed frame), not bare buttons.
    expect(
      await page
        .locator('.tw-upload-tile')
        .first()
        .evaluate((el) => getComputedStyle(el).borderStyle),
    ).toBe('dashed');
    await screenshot(page, `${language}-RealName-form-empty`);

    // Submitting an empty form puts the shared messages under the fields; nothing is sent.
    await page.getByRole('button', { name: text.submit }).click();
    await expect
      .poll(() => page.locator('.adm-form-item-feedback-error', { hasText: text.required }).count())
      .toBeGreaterThan(2);

    await fillForm(page, language, { last: 'Müller', first: 'Anna' });
    await upload(page, 'front');
    await upload(page, 'back');
    await upload(page, 'face');
    await expect.poll(() => page.getByText(text.uploaded, { exact: true }).count()).toBe(3);
    // Editing a field clears its message.
    await expect.poll(() => page.locator('.adm-form-item-feedback-error').count()).toBe(0);
    await noSidewaysScroll(page);
    await screenshot(page, `${language}-RealName-form-filled`);
    await page.getByRole('button', { name: text.submit }).click();
    await expect.poll(() => page.getByText(text.pending, { exact: true }).count()).toBe(1);
    // The submitted photos come back to their owner (private, through the API).
    await expect.poll(() => page.locator('figure img[src^="blob:"]').count()).toBe(3);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `${language}-RealName-pending`);

    // An operator rejects it with a reason, through /api/admin/v1.
    const queue = await admin<{ items: { id: string; uid: string }[] }>(
      baseUrl,
      operator,
      'GET',
      '/kyc/queue',
    );
    const first = queue.data.items.find((item) => item.uid === session.uid);
    expect(first).toBeDefined();
    const reason =
      language === 'en' ? 'The back photo is too dark to read.' : '背面照片太暗，无法辨认。';
    expect(
      (
        await admin(baseUrl, operator, 'POST', '/kyc/decide', {
          id: first?.id,
          decision: 'reject',
          reason,
        })
      ).code,
    ).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByText(text.failed, { exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByText(reason).count()).toBe(1);
    await expect.poll(() => page.locator('figure img[src^="blob:"]').count()).toBe(3);
    await noSidewaysScroll(page);
    await screenshot(page, `${language}-RealName-failed`);

    // Submit again: the names are kept, the photos are new.
    await page.getByRole('button', { name: text.resubmit }).click();
    await expect
      .poll(() => page.locator('input[autocomplete="family-name"]').inputValue())
      .toBe('Müller');
    await upload(page, 'front');
    await upload(page, 'back');
    await upload(page, 'face');
    await expect.poll(() => page.getByText(text.uploaded, { exact: true }).count()).toBe(3);
    await page.getByRole('button', { name: text.submit }).click();
    await expect.poll(() => page.getByText(text.pending, { exact: true }).count()).toBe(1);

    const again = await admin<{ items: { id: string; uid: string }[] }>(
      baseUrl,
      operator,
      'GET',
      '/kyc/queue',
    );
    const second = again.data.items.find((item) => item.uid === session.uid);
    expect(second?.id).not.toBe(first?.id);
    expect(
      (
        await admin(baseUrl, operator, 'POST', '/kyc/decide', {
          id: second?.id,
          decision: 'approve',
        })
      ).code,
    ).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByText(text.passed, { exact: true }).count()).toBe(1);
    await expect.poll(() => page.locator('figure img[src^="blob:"]').count()).toBe(3);
    await screenshot(page, `${language}-RealName-passed`);

    // The profile says verified.
    await page.goto('/My');
    await expect.poll(() => page.locator('.adm-tag', { hasText: text.verified }).count()).toBe(1);
    await context.close();
  });
});
