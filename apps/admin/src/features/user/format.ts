/** Where a user's detail lives in the console (other sections link here too). */
export const userPath = (uid: string) => `/users/${uid}`;

/** An instant as local date and time, the operator's way. */
export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
