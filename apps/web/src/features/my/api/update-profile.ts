import { type UpdateProfileRequest, userProfileSchema } from '@tradewind/contract/user';
import { http } from '@/api/http.ts';

export const updateProfile = (body: UpdateProfileRequest) =>
  http.post('/api/v1/user/profile', body, { schema: userProfileSchema });
