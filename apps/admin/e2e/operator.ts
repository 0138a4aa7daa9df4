// Operators for browser tests: created by the server's own CLI or by an administrator through
// the API, signed in with a code computed from their TOTP secret, as an authenticator would.
import { execFileSync } from 'node:child_process';
import type { OperatorRole } from '@tradewind/contract/operator';
import type { Page } from 'playwright-core';
import { totp } from '../../server/src/modules/security/totp.ts';

export interface OperatorCredentials {
  username: string;
  password: string;
  totpSecret: string;
}

/** `npm run ops -- create-operator` in `cwd` with `env`; the CLI prints the password and the TOTP secret once. */
export function createOperatorByCli(
  cwd: string,
  env: NodeJS.ProcessEnv,
  username: string,
  role: OperatorRole,
): OperatorCredentials {
  const printed = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/cli/ops.ts',
      'create-operator',
      '--username',
      username,
      '--role',
      role,
    ],
    { cwd, env },
  ).toString();
  const password = printed.match(/password: (\S+)/)?.[1];
  const totpSecret = printed.match(/totp secret: (\S+)/)?.[1];
  if (!password || !totpSecret)
    throw new Error(`could not create operator ${username}: ${printed}`);
  return { username, password, totpSecret };
}

/** The authenticator's code now. A code signs in once: sign each operator in once per test file. */
export const totpNow = (secret: string) => totp(secret, Date.now());

/** Signs in through the API and returns the session token. */
export async function operatorApiLogin(
  baseUrl: string,
  operator: OperatorCredentials,
): Promise<string> {
  const reply = (await (
    await fetch(`${baseUrl}/api/admin/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: operator.username,
        password: operator.password,
        code: totpNow(operator.totpSecret),
      }),
    })
  ).json()) as { code: number; message: string; data: { token: string } };
  if (reply.code !== 0)
    throw new Error(`operator ${operator.username} could not sign in: ${reply.message}`);
  return reply.data.token;
}

/** An operator call under /api/admin/v1; returns the envelope. */
export async function operatorApi<T>(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ code: number; message: string; data: T }> {
  const response = await fetch(`${baseUrl}/api/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as { code: number; message: string; data: T };
}

let created = 0;

/** A new operator with `role`, created by an administrator's session (e.g. `inject('operator').token`). */
export async function createOperatorAs(
  baseUrl: string,
  adminToken: string,
  role: OperatorRole,
  username = `e2e-${role}-${process.pid}-${++created}`,
): Promise<OperatorCredentials> {
  const reply = await operatorApi<OperatorCredentials>(baseUrl, adminToken, 'POST', '/operators', {
    username,
    role,
  });
  if (reply.code !== 0) throw new Error(`could not create operator ${username}: ${reply.message}`);
  return { username, password: reply.data.password, totpSecret: reply.data.totpSecret };
}

/** Signs in on the console's sign-in screen in `language` ('en' or 'zh-CN') and waits for the shell. */
export async function signInOperator(
  page: Page,
  baseUrl: string,
  operator: OperatorCredentials,
  language: 'en' | 'zh-CN' = 'en',
): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  await page.evaluate((lang) => localStorage.setItem('tw-admin-lang', lang), language);
  await page.reload();
  await page.getByTestId('login-username').fill(operator.username);
  await page.getByTestId('login-password').fill(operator.password);
  await page.getByTestId('login-code').fill(totpNow(operator.totpSecret));
  await page.getByTestId('login-submit').click();
  await page.getByTestId('admin-shell').waitFor();
}

export const DESKTOP = { width: 1280, height: 800 };
