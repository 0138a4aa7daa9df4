import { z } from 'zod';
import { http } from '@/api/http.ts';
import { clearSessionToken } from '@/lib/session-token.ts';

/** Ends the session on the server (a failure there changes nothing here) and forgets the token. */
export async function signOut(): Promise<void> {
  await http
    .post('/auth/logout', {}, { schema: z.object({ ok: z.literal(true) }) })
    .catch(() => undefined);
  clearSessionToken();
}
