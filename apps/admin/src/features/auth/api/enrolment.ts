import { enrolmentStartedSchema } from '@tradewind/contract/operator';
import { z } from 'zod';
import { http } from '@/api/http.ts';

/** Which account a code is for, and the TOTP secret to add to an authenticator. */
export const startEnrolment = (code: string) =>
  http.post('/enrolment/start', { code }, { schema: enrolmentStartedSchema });

/** Sets the newcomer's own password; the authenticator code proves the secret was added. */
export const completeEnrolment = (body: { code: string; password: string; totpCode: string }) =>
  http.post('/enrolment/complete', body, { schema: z.object({ ok: z.literal(true) }) });
