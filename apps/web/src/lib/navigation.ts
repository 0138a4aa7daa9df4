import { useSearchParams } from '@/lib/router.tsx';

/**
 * Where a form returns to: the `?back=` a screen passed when it sent the user here (e.g.
 * the withdrawal screen sending them to set a password), if it is one of our own paths.
 */
export function useBackTarget(fallback: string): string {
  const [params] = useSearchParams();
  const back = params.get('back');
  return back && /^\/[A-Za-z]/.test(back) ? back : fallback;
}
