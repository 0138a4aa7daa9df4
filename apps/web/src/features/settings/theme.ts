/**
 * Light or dark (issue 32). public/theme.js applies the stored choice, or else the system's,
 * before the first paint and follows the system while no choice is stored; this module does
 * the same when the user chooses in Settings. Both write html[data-prefers-color-scheme],
 * the attribute antd-mobile's dark variables hang on, and the theme-color meta.
 */

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** Local storage: "light" or "dark"; absent follows the system. (The same key as public/theme.js.) */
export const THEME_STORAGE_KEY = 'theme';

/** The browser's toolbar colour: the colour of the screens' top bar in each theme. */
const THEME_COLOURS = { light: '#ffffff', dark: '#1a1d24' } as const;

export function storedTheme(): ThemeChoice {
  const value = localStorage.getItem(THEME_STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Stores the choice and shows it at once. */
export function chooseTheme(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
  else localStorage.setItem(THEME_STORAGE_KEY, choice);
  const systemDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const theme = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  document.documentElement.setAttribute('data-prefers-color-scheme', theme);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOURS[theme]);
}
