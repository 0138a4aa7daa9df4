import { type CastVoteRequest, votePollSchema } from '@tradewind/contract/vote';
import { http } from '@/api/http.ts';

export const castVote = (body: CastVoteRequest) =>
  http.post('/api/v1/votes/cast', body, { schema: votePollSchema });
