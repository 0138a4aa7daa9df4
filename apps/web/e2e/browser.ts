import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';

export const PHONE = { width: 390, height: 844 };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SCREENSHOT_DIR = path.join(root, 'artifacts/screenshots');

/** Debian's Chromium (CHROME_PATH), with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(browserOptions());
}

export function browserOptions() {
  return {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The newest code the demo outbox holds for an address. */
export async function outboxCode(baseUrl: string, to: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const reply = (await (
      await fetch(`${baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(to)}`)
    ).json()) as { data: { items: { body: string }[] } };
    const code = reply.data.items[0]?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code for ${to}`);
}

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** One API call as the tests make it: JSON in, the envelope out (whatever its code). */
export async function apiCall<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Envelope<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as Envelope<T>;
}

/** Polls `check` every 200 ms until it holds, or fails naming `what`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Signs the page in as `session` in `language`, the way the app stores a session (spec §3). */
export async function signIn(
  page: Page,
  session: { token: string; uid: string },
  language: string,
): Promise<void> {
  await page.goto('/Login');
  await page.evaluate(
    ({ token, uid, lang }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('uid', uid);
      localStorage.setItem('lang', lang);
    },
    { token: session.token, uid: session.uid, lang: language },
  );
}
