/** spec §4: paths containing one of these are open to anyone; every other page needs a stored token. */
export const OPEN_PATH_PARTS = ['Login', 'Register', 'ForgetPwd', 'Agree'] as const;

export function isOpenPath(pathname: string): boolean {
  return OPEN_PATH_PARTS.some((part) => pathname.includes(part));
}
