import type { VotePoll } from '@tradewind/contract/vote';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';

/**
 * /Vote against the real server and its seeded demo polls: vote once ("vote successful",
 * the count goes up), then a second vote is refused ("you have already voted") both
 * through the API and from a screen opened before the first vote.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    poll: 'Which feature should we build next?',
    option: 'Dark mode',
    other: 'Price alerts',
    submit: 'Vote',
    success: 'Vote successful',
    already: 'You have already voted.',
    voted: 'You voted for Dark mode',
  },
  de: {
    tag: 'de',
    poll: 'Welche Funktion sollen wir als Nächstes entwickeln?',
    option: 'Dunkelmodus',
    other: 'Preisalarme',
    submit: 'Abstimmen',
    success: 'Stimme abgegeben',
    already: 'Sie haben bereits abgestimmt.',
    voted: 'Sie haben für Dunkelmodus gestimmt',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `vote${Date.now()}${++counter}@example.com`;

async function api<T>(
  method: 'GET' | 'POST',
  path: string,
  token: string,
  lang: string,
  body?: unknown,
): Promise<{ code: number; message: string; data: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': lang,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { code: number; message: string; data: T };
}

async function openVotePage(
  context: BrowserContext,
  session: { token: string; uid: string },
  language: string,
): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, session, language);
  await page.goto('/Vote');
  return page;
}

const optionButton = (page: Page, pollId: string, label: string) =>
  page.locator(`section[data-poll-id="${pollId}"] button`, { hasText: label });

describe.each(['en', 'de'] as const)('voting in %s', (language) => {
  it('vote once ("vote successful", the count goes up); a second vote is refused with "you have already voted"', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const session = await registerByApi(baseUrl, uniqueEmail());
    const polls = await api<{ items: VotePoll[] }>('GET', '/api/v1/votes', session.token, language);
    const poll = polls.data.items.find((p) => p.title === text.poll) as VotePoll;
    expect(poll).toBeDefined();
    expect(poll.votedOptionId).toBeNull();
    const option = poll.options.find((o) => o.label === text.option) as VotePoll['options'][number];
    const other = poll.options.find((o) => o.label === text.other) as VotePoll['options'][number];

    const page = await openVotePage(context, session, language);
    // A second screen, open before the vote: it still offers the options.
    const stale = await openVotePage(context, session, language);
    await expect.poll(() => optionButton(page, poll.id, text.option).count()).toBe(1);
    await expect.poll(() => optionButton(stale, poll.id, text.other).isEnabled()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await screenshot(page, `${language}-Vote-list`);

    // Tap → confirm → "vote successful", the bar moves and is marked as the user's vote.
    const before = (
      await api<{ items: VotePoll[] }>('GET', '/api/v1/votes', session.token, language)
    ).data.items.find((p) => p.id === poll.id) as VotePoll;
    const countBefore = before.options.find((o) => o.id === option.id)?.count ?? 0;
    await optionButton(page, poll.id, text.option).click();
    await expect.poll(() => page.locator('.adm-dialog-body').isVisible()).toBe(true);
    await screenshot(page, `${language}-Vote-confirm`);
    await page.locator('.adm-dialog-footer').getByText(text.submit, { exact: true }).click();
    await expect
      .poll(() => page.locator('.adm-toast-main', { hasText: text.success }).count())
      .toBe(1);
    await expect
      .poll(() => optionButton(page, poll.id, text.option).getAttribute('aria-pressed'))
      .toBe('true');
    await expect
      .poll(() => optionButton(page, poll.id, text.option).textContent())
      .toContain(`${countBefore + 1} ·`);
    await expect.poll(() => page.getByText(text.voted).count()).toBe(1);
    // Voting is over for this poll on this screen.
    for (const label of [text.option, text.other])
      expect(await optionButton(page, poll.id, label).isDisabled()).toBe(true);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `${language}-Vote-voted`);

    const after = await api<{ items: VotePoll[] }>('GET', '/api/v1/votes', session.token, language);
    const counted = after.data.items.find((p) => p.id === poll.id) as VotePoll;
    expect(counted.votedOptionId).toBe(option.id);
    expect(counted.options.find((o) => o.id === option.id)?.count).toBe(countBefore + 1);

    // Again through the API, for another option: refused in the user's language, counts unchanged.
    const again = await api('POST', '/api/v1/votes/cast', session.token, language, {
      pollId: poll.id,
      optionId: other.id,
    });
    expect(again).toMatchObject({ code: 2701, message: text.already, data: null });

    // Again from the screen opened before the vote: refused with the message, and the screen catches up.
    await optionButton(stale, poll.id, text.other).click();
    await stale.locator('.adm-dialog-footer').getByText(text.submit, { exact: true }).click();
    await expect
      .poll(() => stale.locator('.adm-toast-main', { hasText: text.already }).count())
      .toBe(1);
    await screenshot(stale, `${language}-Vote-already-voted`);
    await expect
      .poll(() => optionButton(stale, poll.id, text.option).getAttribute('aria-pressed'))
      .toBe('true');
    await expect.poll(() => optionButton(stale, poll.id, text.other).isDisabled()).toBe(true);

    const final = (
      await api<{ items: VotePoll[] }>('GET', '/api/v1/votes', session.token, language)
    ).data.items.find((p) => p.id === poll.id) as VotePoll;
    expect(final.options.map((o) => o.count)).toEqual(counted.options.map((o) => o.count));
    await context.close();
  });
});
