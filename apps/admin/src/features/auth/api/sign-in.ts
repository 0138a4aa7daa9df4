import { operatorSessionSchema } from '@tradewind/contract/operator';
import { http } from '@/api/http.ts';
import { setSessionToken } from '@/lib/session-token.ts';

export interface SignInForm {
  username: string;
  password: string;
  /** The authenticator's 6-digit code: every operator signs in with TOTP. */
  code: string;
}

/** `POST /auth/login`; the session's token is kept for the browser tab. */
export async function signIn(body: SignInForm): Promise<void> {
  const created = await http.post('/auth/login', body, { schema: operatorSessionSchema });
  setSessionToken(created.token);
}
