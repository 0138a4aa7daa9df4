import {} from 'vitest';
import { suiteServer } from './suite-server.ts';
import { apiCall } from './browser.ts';
import { PASSWORD, admin, bandedPng } from './images.ts';

/** The trading password the journeys set and type: six digits, as the app asks. */
export const TRADE_PIN = '480316';

/** The name the journeys' users verify with; a bank card must be in it. */
export const KYC_NAME = { firstName: 'Erika', lastName: 'Muster' } as const;

async function uploadKycPhoto(baseUrl: string, token: string, seed: number): Promise<string> {
  const png = bandedPng(240, 160, [
    [20 + seed * 40, 82, 240],
    [240, 240, 240],
  ]);
  const form = new FormData();
  form.append('purpose', 'kyc');
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  ).json()) as { code: number; message: string; data: { id: string } };
  if (reply.code !== 0) throw new Error(`KYC photo: ${reply.message}`);
  return reply.data.id;
}

/**
 * Makes a registered user ready for every financial action, as a person gets there (spec §5):
 * identity sent and approved by the operator, and a trading password set. `loginPassword` is
 * the one they registered with (images.ts's PASSWORD unless told).
 */
export async function makeReady(
  baseUrl: string,
  user: { token: string; uid: string },
  loginPassword: string = PASSWORD,
): Promise<void> {
  const api = <T>(method: 'GET' | 'POST', url: string, body?: unknown) =>
    apiCall<T>(baseUrl, method, url, user.token, body);
  const [front, face] = await Promise.all([
    uploadKycPhoto(baseUrl, user.token, 1),
    uploadKycPhoto(baseUrl, user.token, 2),
  ]);
  const sent = await api('POST', '/api/v1/kyc', {
    country: 'DE',
    ...KYC_NAME,
    documentType: 'passport',
    documentNumber: 'C01X00T47',
    frontFileId: front,
    faceFileId: face,
  });
  if (sent.code !== 0) throw new Error(`KYC: ${sent.message}`);
  const operator = suiteServer().operator.token;
  // Oldest first, a page at a time: other journeys' submissions may wait ahead of this one.
  let submission: { id: string; uid: string } | undefined;
  for (let cursor: string | null = ''; submission === undefined && cursor !== null;) {
    const queue: { data: { items: { id: string; uid: string }[]; nextCursor: string | null } } =
      await admin(baseUrl, operator, 'GET', `/kyc/queue${cursor ? `?cursor=${cursor}` : ''}`);
    submission = queue.data.items.find((item) => item.uid === user.uid);
    cursor = queue.data.nextCursor;
  }
  const decided = await admin(baseUrl, operator, 'POST', '/kyc/decide', {
    id: submission?.id,
    decision: 'approve',
  });
  if (decided.code !== 0) throw new Error(`KYC approval: ${JSON.stringify(decided)}`);
  const pin = await api('POST', '/api/v1/money-passwords', {
    kind: 'trade',
    proof: 'login_password',
    loginPassword,
    password: TRADE_PIN,
    confirmPassword: TRADE_PIN,
  });
  if (pin.code !== 0) throw new Error(`trading password: ${pin.message}`);
}
