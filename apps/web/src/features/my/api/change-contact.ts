import {
  type ChangeContactRequest,
  type SendContactCodeRequest,
  sendContactCodeResponseSchema,
} from '@tradewind/contract/contact';
import { userProfileSchema } from '@tradewind/contract/user';
import { http } from '@/api/http.ts';

/** Sends a code to the new email or phone. */
export const sendContactCode = (body: SendContactCodeRequest) =>
  http.post('/api/v1/user/contact/codes', body, { schema: sendContactCodeResponseSchema });

/** Binds the new address with its code and the current login password; answers the updated profile. */
export const changeContact = (body: ChangeContactRequest) =>
  http.post('/api/v1/user/contact', body, { schema: userProfileSchema });
