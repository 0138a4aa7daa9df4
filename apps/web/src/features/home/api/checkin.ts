import {
  checkinResultSchema,
  checkinStateSchema,
  pointsHistorySchema,
} from '@tradewind/contract/points';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const checkinQueryKey = ['points', 'checkin'] as const;
export const pointsHistoryQueryKey = ['points', 'history'] as const;
/** The My tab's profile (features/my) shows the points balance; a check-in changes it. */
const PROFILE_QUERY_KEY = ['user', 'profile'] as const;

/** How many recent points events the card lists. */
export const RECENT_POINTS_EVENTS = 5;

export const getCheckin = () => http.get('/api/v1/points/checkin', { schema: checkinStateSchema });

export const getRecentPoints = () =>
  http.get('/api/v1/points/history', {
    params: { limit: RECENT_POINTS_EVENTS },
    schema: pointsHistorySchema,
  });

export const postCheckin = () =>
  http.post('/api/v1/points/checkin', undefined, { schema: checkinResultSchema });

export function useCheckinState() {
  return useQuery({ queryKey: checkinQueryKey, queryFn: getCheckin, refetchOnMount: 'always' });
}

export function useRecentPoints() {
  return useQuery({ queryKey: pointsHistoryQueryKey, queryFn: getRecentPoints });
}

export function useCheckIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postCheckin,
    onSuccess: (result) => {
      queryClient.setQueryData(checkinQueryKey, result);
    },
    // A refused check-in (already done on another device) also means the card is stale.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: checkinQueryKey }),
        queryClient.invalidateQueries({ queryKey: pointsHistoryQueryKey }),
        queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
      ]),
  });
}
