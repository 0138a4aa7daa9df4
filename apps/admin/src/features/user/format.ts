import { formatTime } from '@/lib/format.ts';

/** Where a user's detail lives in the console (other sections link to /admin/users/<uid>). */
export const userPath = (uid: string) => `/users/${uid}`;

/** A timestamp in the console's language, or a dash. */
export const timeOrDash = (iso: string | null) => (iso ? formatTime(iso) : '—');
