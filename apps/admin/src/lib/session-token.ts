/** The operator's session token: in sessionStorage, so closing the browser tab signs out. */
const TOKEN_KEY = 'tw-admin-token';

export const getSessionToken = () => sessionStorage.getItem(TOKEN_KEY);
export const setSessionToken = (token: string) => sessionStorage.setItem(TOKEN_KEY, token);
export const clearSessionToken = () => sessionStorage.removeItem(TOKEN_KEY);
