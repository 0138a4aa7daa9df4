import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useSyncExternalStore } from 'react';
import { BrowserRouter } from '@/lib/router.tsx';
import { ApiError } from '@/api/client.ts';
import { getUpdateState, registerServiceWorker, subscribeUpdate } from '@/features/pwa/app-update.ts';
import { connectRealtime } from '@/api/realtime.ts';
import { AntdLocale } from '@/ui/antd-locale.tsx';
import { AppRoutes } from './router.tsx';

const UpdatePrompt = lazy(() => import('@/features/pwa/update-prompt.tsx'));

/** The update card's code loads only when there is an update to offer. */
function UpdatePromptHost() {
  const state = useSyncExternalStore(subscribeUpdate, getUpdateState, getUpdateState);
  if (state.phase === 'idle') return null;
  return (
    <Suspense fallback={null}>
      <UpdatePrompt />
    </Suspense>
  );
}

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A reply with an error code will not change on retry; a dropped connection might.
      retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/** `location`: the path to render without a window (the build's prerender, src/prerender.tsx). */
export function App({ location }: { location?: string }) {
  // One WebSocket for the app, feeding the query cache (ARCHITECTURE §7).
  useEffect(() => connectRealtime(queryClient), []);
  // Installable app and update prompts (spec §1); the dev server has no service worker.
  useEffect(() => {
    if (import.meta.env.PROD) registerServiceWorker();
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <AntdLocale>
        <BrowserRouter location={location}>
          <AppRoutes />
        </BrowserRouter>
        <UpdatePromptHost />
      </AntdLocale>
    </QueryClientProvider>
  );
}
