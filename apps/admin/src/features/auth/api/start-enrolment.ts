import { enrolmentStartedSchema } from '@tradewind/contract/operator';
import { http } from '@/api/http.ts';

/** Which account a code is for, and the TOTP secret to add to an authenticator. */
export const startEnrolment = (code: string) =>
  http.post('/enrolment/start', { code }, { schema: enrolmentStartedSchema });
