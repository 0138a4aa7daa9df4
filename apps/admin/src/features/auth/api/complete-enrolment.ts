import { z } from 'zod';
import { http } from '@/api/http.ts';

/** Sets the newcomer's own password; the authenticator code proves the secret was added. */
export const completeEnrolment = (body: { code: string; password: string; totpCode: string }) =>
  http.post('/enrolment/complete', body, { schema: z.object({ ok: z.literal(true) }) });
