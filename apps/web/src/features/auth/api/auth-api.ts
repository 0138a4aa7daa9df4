import type {
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
  ResetPasswordRequest,
  SendCodeRequest,
} from '@tradewind/contract/auth';
import { sendCodeResponseSchema, sessionResponseSchema } from '@tradewind/contract/auth-basics';
import { okSchema } from '@tradewind/contract/envelope';
import { type LoginSecondStepRequest, loginResponseSchema } from '@tradewind/contract/security';
import { http } from '@/api/http.ts';

/** The sign-in endpoints; each reply is parsed with its shared schema. */

export const sendCode = (body: SendCodeRequest) =>
  http.post('/api/v1/auth/codes', body, { schema: sendCodeResponseSchema });

export const register = (body: RegisterRequest) =>
  http.post('/api/v1/auth/register', body, { schema: sessionResponseSchema });

/** A session, or (two-factor on) a challenge for `loginSecondStep`. */
export const login = (body: LoginRequest) =>
  http.post('/api/v1/auth/login', body, { schema: loginResponseSchema });

export const loginSecondStep = (body: LoginSecondStepRequest) =>
  http.post('/api/v1/auth/login/2fa', body, { schema: sessionResponseSchema });

export const resetPassword = (body: ResetPasswordRequest) =>
  http.post('/api/v1/auth/password/reset', body, { schema: okSchema });

export const changePassword = (body: ChangePasswordRequest) =>
  http.post('/api/v1/auth/password/change', body, { schema: okSchema });

export const logout = () => http.post('/api/v1/auth/logout', undefined, { schema: okSchema });
