import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, outboxCode, screenshot, signIn } from './browser.ts';
import { PASSWORD, bandedPng, registerByApi } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    edit: 'Edit profile',
    avatarSaved: 'Avatar updated',
    save: 'Save',
    changed: 'Change successful',
    tooShort: 'The nickname needs at least 2 characters.',
    nickname: 'Sea Breeze 7',
    credit: 'Credit score',
    rule: 'Identity verified',
    sendCode: 'Send code',
    change: 'Change',
    emailRow: 'Email',
  },
  de: {
    tag: 'de',
    edit: 'Profil bearbeiten',
    avatarSaved: 'Profilbild aktualisiert',
    save: 'Speichern',
    changed: 'Änderung erfolgreich',
    tooShort: 'Der Spitzname braucht mindestens 2 Zeichen.',
    nickname: 'Jörg_Händler',
    credit: 'Bonitätswert',
    rule: 'Identität verifiziert',
    sendCode: 'Code senden',
    change: 'Ändern',
    emailRow: 'E-Mail',
  },
} as const;

let counter = 0;
const uniqueEmail = (prefix = 'profile') => `${prefix}${Date.now()}${++counter}@example.com`;

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

/** The avatar picture on a screen: its address and the size it loaded at. */
const avatarImage = async (page: Page, testId: string) => {
  const img = page.getByTestId(testId).locator('img');
  await expect
    .poll(() => img.evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth > 0))
    .toBe(true);
  return img.evaluate((node: HTMLImageElement) => ({
    src: node.getAttribute('src') ?? '',
    width: node.naturalWidth,
    height: node.naturalHeight,
  }));
};

describe.each(['en', 'de'] as const)('profile in %s', (language) => {
  it('change avatar and nickname on /SetInfo → both show on /My; a bad nickname is refused in the language; credit rules are shown', async () => {
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

    await page.goto('/My');
    await expect.poll(() => page.getByTestId('my-uid').textContent()).toBe(`UID ${session.uid}`);
    // A new account's nickname is its masked address until the user picks one.
    expect(await page.getByTestId('my-nickname').textContent()).toBe(
      `${email.slice(0, 2)}***@example.com`,
    );
    expect(await page.getByTestId('my-credit').textContent()).toBe('100');
    expect(await page.getByTestId('my-points').textContent()).toBe('0');
    await noSidewaysScroll(page);
    await screenshot(page, `profile-${language}-My-before`);

    // The header leads to /SetInfo.
    await page.getByRole('button', { name: text.edit }).first().click();
    await expect.poll(() => page.url()).toContain('/SetInfo');

    // A wide picture: the server crops it to the middle square and resizes it to 256 px.
    await page.getByTestId('avatar-input').setInputFiles({
      name: 'wide.png',
      mimeType: 'image/png',
      buffer: bandedPng(900, 300, [
        [200, 40, 40],
        [40, 160, 90],
        [30, 80, 200],
      ]),
    });
    await expect
      .poll(() => page.locator('.adm-toast-main', { hasText: text.avatarSaved }).count())
      .toBe(1);
    const onSetInfo = await avatarImage(page, 'setinfo-avatar');
    expect(onSetInfo.src).toMatch(/^\/files\/[0-9a-f]{48}\.jpg$/);
    expect(onSetInfo).toMatchObject({ width: 256, height: 256 });

    // A nickname of one character is refused under the field, in the page's language.
    const nickname = page.getByPlaceholder(
      language === 'en' ? 'Enter a nickname' : 'Spitznamen eingeben',
    );
    await nickname.fill('x');
    await page.getByRole('button', { name: text.save }).click();
    await expect
      .poll(() => page.locator('.adm-form-item-feedback-error', { hasText: text.tooShort }).count())
      .toBe(1);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `profile-${language}-SetInfo`);
    await noSidewaysScroll(page);

    await nickname.fill(text.nickname);
    await page.getByRole('button', { name: text.save }).click();
    await expect.poll(() => page.url()).toMatch(/\/My$/);
    await expect.poll(() => page.getByTestId('my-nickname').textContent()).toBe(text.nickname);
    const onMy = await avatarImage(page, 'my-avatar');
    expect(onMy.src).toBe(onSetInfo.src);

    // What the screen shows is what the server has, after a reload too.
    await page.reload();
    await expect.poll(() => page.getByTestId('my-nickname').textContent()).toBe(text.nickname);
    expect((await avatarImage(page, 'my-avatar')).src).toBe(onSetInfo.src);
    const profile = await apiCall<{ nickname: string; avatar: string }>(
      baseUrl,
      'GET',
      '/api/v1/user/profile',
      session.token,
    );
    expect(profile.data).toMatchObject({
      nickname: text.nickname,
      avatar: onSetInfo.src.replace('/files/', ''),
    });
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `profile-${language}-My`);

    // The credit score leads to its rules.
    await page.getByRole('button', { name: `${text.credit} 100` }).click();
    await expect.poll(() => page.getByTestId('credit-score').textContent()).toBe('100');
    expect(await page.locator('.tw-credit-rules').textContent()).toContain(text.rule);
    expect(await page.locator('.tw-credit-rules').textContent()).toContain('+20');
    await noSidewaysScroll(page);
    await screenshot(page, `profile-${language}-Credit`);

    // Change the email: code to the new address, current password; the old address is told.
    await page.goto('/SetEmail');
    const next = uniqueEmail('moved');
    await page
      .getByPlaceholder(language === 'en' ? 'name@example.com' : 'name@beispiel.de')
      .fill(next);
    await page.getByRole('button', { name: text.sendCode }).click();
    const code = await outboxCode(baseUrl, next);
    await page.getByPlaceholder(language === 'en' ? '6-digit code' : '6-stelliger Code').fill(code);
    await page
      .getByPlaceholder(
        language === 'en' ? 'Your current login password' : 'Ihr aktuelles Anmeldepasswort',
      )
      .fill(PASSWORD);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `profile-${language}-SetEmail`);
    await page.getByRole('button', { name: text.change, exact: true }).click();
    await expect.poll(() => page.url()).toContain('/SetInfo');
    const emailRow = page.locator('.adm-list-item', { hasText: text.emailRow });
    await expect.poll(() => emailRow.textContent()).toContain(`${next.slice(0, 2)}***@example.com`);
    const told = await apiCall<{ items: { body: string }[] }>(
      baseUrl,
      'GET',
      `/api/v1/dev/outbox?to=${encodeURIComponent(email)}`,
    );
    expect(told.data.items[0]?.body).toContain(session.uid);

    await page.goto('/SetPhone');
    await expect.poll(() => page.getByTestId('current-contact').textContent()).toBeTruthy();
    await noSidewaysScroll(page);
    await screenshot(page, `profile-${language}-SetPhone`);
    await context.close();
  });
});
