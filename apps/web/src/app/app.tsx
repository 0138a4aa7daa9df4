import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useSyncExternalStore } from 'react';
import { BrowserRouter } from '@/lib/router.tsx';
import { ApiError } from '@tradewind/http-client/api-error';
import {
  getUpdateState,
  registerServiceWorker,
  subscribeUpdate,
} from '@/features/pwa/app-update.ts';
import { connectRealtime } from '@/api/realtime.ts';
import { AntdLocale } from '@/ui/antd-locale.tsx';
import { AppRoutes } from './router.tsx';
import { RenderedSignedIn } from './shell.tsx';

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

/** The app's query cache, as the browser and the server's render (src/prerender.tsx) make it. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

const queryClient = createQueryClient();

/** A query the server answered inside the page it rendered (`#tw-state`, src/prerender.tsx). */
export interface AnsweredQuery {
  url: string;
  key: readonly unknown[];
  data: unknown;
  updatedAt: number;
}

/** Puts the server's answers in the cache before the app hydrates the page rendered with them. */
export function restoreQueries(queries: readonly AnsweredQuery[]): void {
  for (const query of queries)
    queryClient.setQueryData(query.key, query.data, { updatedAt: query.updatedAt });
}

interface AppProps {
  /** The path to render without a window (src/prerender.tsx). */
  location?: string;
  /** The server's render: its own cache per page. */
  client?: QueryClient;
  /** The server's render of a signed-in page, which it makes without the session (see Shell). */
  signedIn?: boolean;
}

export function App({ location, client = queryClient, signedIn = false }: AppProps) {
  // One WebSocket for the app, feeding the query cache (ARCHITECTURE §7).
  useEffect(() => connectRealtime(client), [client]);
  // Installable app and update prompts (spec §1); the dev server has no service worker.
  useEffect(() => {
    if (import.meta.env.PROD) registerServiceWorker();
  }, []);
  return (
    <QueryClientProvider client={client}>
      <AntdLocale>
        <BrowserRouter location={location}>
          <RenderedSignedIn value={signedIn}>
            <AppRoutes />
          </RenderedSignedIn>
        </BrowserRouter>
        <UpdatePromptHost />
      </AntdLocale>
    </QueryClientProvider>
  );
}
