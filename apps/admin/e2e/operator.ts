// Operators for browser tests: the first admin by the server's own CLI, every other one as in
// production (one admin requests, a second approves, the newcomer enrols with their own
// password and TOTP), signed in with a code computed from their TOTP secret, as an
// authenticator would.
import { execFileSync } from 'node:child_process';
import type { OperatorRole } from '@tradewind/contract/operator';
import type { Page } from 'playwright-core';
import {} from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { totp } from '../../server/src/modules/security/totp.ts';

export interface OperatorCredentials {
  username: string;
  password: string;
  totpSecret: string;
}

const ops = (cwd: string, env: NodeJS.ProcessEnv, args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/ops.ts', ...args], {
    cwd,
    env,
  }).toString();

/**
 * `npm run ops -- create-operator` in `cwd` with `env`: the first admin of a fresh install (the
 * CLI refuses once an admin exists); it prints the password and the TOTP secret once.
 */
export function createOperatorByCli(
  cwd: string,
  env: NodeJS.ProcessEnv,
  username: string,
  _role: 'admin' = 'admin',
): OperatorCredentials {
  const printed = ops(cwd, env, [
    'create-operator',
    '--username',
    username,
    '--reason',
    'e2e: first admin',
  ]);
  const password = printed.match(/password: (\S+)/)?.[1];
  const totpSecret = printed.match(/totp secret: (\S+)/)?.[1];
  if (!password || !totpSecret)
    throw new Error(`could not create operator ${username}: ${printed}`);
  return { username, password, totpSecret };
}

/** The authenticator's code now. A code signs in once (the server refuses its replay). */
export const totpNow = (secret: string) => totp(secret, Date.now());

const TOTP_STEP_MS = 30_000;
/** Per secret, the last 30-second step whose code this process used to sign in. */
const usedSteps = new Map<string, number>();

/**
 * A code the server will take: the current step's, or, when this process already signed the
 * same operator in during this step (two tests of a file within 30 s), the next step's once it
 * begins. A reused code would be refused as a replay and the sign-in would hang on the form.
 */
export async function freshTotp(secret: string): Promise<string> {
  const used = usedSteps.get(secret);
  let step = Math.floor(Date.now() / TOTP_STEP_MS);
  if (used !== undefined && step <= used) {
    await new Promise((resolve) =>
      setTimeout(resolve, (used + 1) * TOTP_STEP_MS - Date.now() + 50),
    );
    step = Math.floor(Date.now() / TOTP_STEP_MS);
  }
  usedSteps.set(secret, step);
  return totp(secret, step * TOTP_STEP_MS);
}

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
        code: await freshTotp(operator.totpSecret),
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

/**
 * Redeems an enrolment code as the newcomer would on /admin/enrol. The authenticator code is
 * the previous 30-second step's (still accepted), so the newcomer can sign in at once.
 */
async function enrol(baseUrl: string, username: string, code: string) {
  const post = async <T>(path: string, body: unknown) =>
    (await (
      await fetch(`${baseUrl}/api/admin/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as { code: number; message: string; data: T };
  const started = await post<{ totpSecret: string }>('/enrolment/start', { code });
  if (started.code !== 0) throw new Error(`could not enrol ${username}: ${started.message}`);
  const password = `e2e-password-${username}`;
  const { totpSecret } = started.data;
  const done = await post('/enrolment/complete', {
    code,
    password,
    totpCode: totp(totpSecret, Date.now() - 30_000),
  });
  if (done.code !== 0) throw new Error(`could not enrol ${username}: ${done.message}`);
  return { username, password, totpSecret };
}

async function requestOperator(
  baseUrl: string,
  requesterToken: string,
  username: string,
  role: OperatorRole,
) {
  const reply = await operatorApi<{ id: number }>(
    baseUrl,
    requesterToken,
    'POST',
    '/operators/requests',
    { kind: 'create', username, role, reason: 'e2e' },
  );
  if (reply.code !== 0) throw new Error(`could not request ${username}: ${reply.message}`);
  return reply.data.id;
}

/**
 * The install's second admin: requested by the first, approved from the server's shell (allowed
 * only while the install has never had two admins), enrolled through the API.
 */
export async function bootstrapSecondAdmin(
  cwd: string,
  env: NodeJS.ProcessEnv,
  baseUrl: string,
  firstAdminToken: string,
  username: string,
): Promise<OperatorCredentials> {
  const id = await requestOperator(baseUrl, firstAdminToken, username, 'admin');
  const printed = ops(cwd, env, [
    'operator-request:approve',
    '--id',
    String(id),
    '--reason',
    'e2e: second admin',
  ]);
  const code = printed.match(/enrolment code[^:]*: (\S+)/)?.[1];
  if (!code) throw new Error(`no enrolment code for ${username}: ${printed}`);
  return enrol(baseUrl, username, code);
}

/**
 * A new operator with `role`, requested by an administrator's session (e.g.
 * `suiteServer().operator.token`) and approved by the suite's second admin (`suiteServer().approver`).
 */
export async function createOperatorAs(
  baseUrl: string,
  adminToken: string,
  role: OperatorRole,
  username = `e2e-${role}-${process.pid}-${++created}`,
): Promise<OperatorCredentials> {
  const id = await requestOperator(baseUrl, adminToken, username, role);
  const decided = await operatorApi<{ enrolment: { code: string } | null }>(
    baseUrl,
    suiteServer().approver.token,
    'POST',
    '/operators/requests/decide',
    { id, decision: 'approve', reason: 'e2e' },
  );
  if (decided.code !== 0 || !decided.data.enrolment)
    throw new Error(`could not approve ${username}: ${decided.message}`);
  return enrol(baseUrl, username, decided.data.enrolment.code);
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
  await page.getByTestId('login-code').fill(await freshTotp(operator.totpSecret));
  await page.getByTestId('login-submit').click();
  await page.getByTestId('admin-shell').waitFor();
}

/**
 * Opens a console page with an existing session (a TOTP code signs in only once per 30 s step:
 * a suite's admins sign in once and reuse their tokens), in `language`.
 */
export async function openConsoleAs(
  page: Page,
  baseUrl: string,
  token: string,
  language: 'en' | 'zh-CN',
  path: string,
): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  await page.evaluate(
    ([lang, session]) => {
      localStorage.setItem('tw-admin-lang', lang);
      sessionStorage.setItem('tw-admin-token', session);
    },
    [language, token] as const,
  );
  await page.goto(`${baseUrl}/admin/${path}`);
  await page.getByTestId('admin-shell').waitFor();
}

export const DESKTOP = { width: 1280, height: 800 };
