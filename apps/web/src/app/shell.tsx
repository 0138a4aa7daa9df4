import 'antd-mobile/es/components/spin-loading/spin-loading.css';
import {
  type CSSProperties,
  Suspense,
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
} from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from '@/lib/router.tsx';
import { setNavigateHandler, setSessionEndHandler } from '@/api/http.ts';
import { useConfig } from '@/api/config.ts';
import { realtime } from '@/api/realtime.ts';
import { STORAGE_KEYS, getToken, mirrorSession, storedLanguage } from '@/lib/storage.ts';
import { isOpenPath } from './guard.ts';

/** The dash array of antd-mobile's spinner: the circumference of its circle (radius 15). */
const SPIN_CIRCUMFERENCE = 15 * Math.PI * 2;

/**
 * antd-mobile's `<SpinLoading color="primary">`, same markup and styles, with its dash animated
 * by CSS (`tw-spin` in styles.css) instead of react-spring: that library would otherwise be
 * downloaded by every first screen for the few frames this shows.
 */
export function PageFallback() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', paddingTop: '40vh' }}>
      <div
        className="adm-spin-loading tw-spin"
        style={{ '--color': 'var(--adm-color-primary)' } as CSSProperties}
        aria-label="loading"
      >
        <svg className="adm-spin-loading-svg" viewBox="0 0 32 32">
          <circle
            className="adm-spin-loading-fill"
            fill="transparent"
            strokeWidth="2"
            strokeDasharray={SPIN_CIRCUMFERENCE}
            strokeLinecap="square"
            r={15}
            cx={16}
            cy={16}
          />
        </svg>
      </div>
    </div>
  );
}

/**
 * True in the server's render of a signed-in page (`/`, src/prerender.tsx): it has no session,
 * and renders the page as a signed-in visitor sees it before their data arrives. The browser
 * hydrates that page only when it holds a session (main.tsx).
 */
export const RenderedSignedIn = createContext(false);

/** Root of every route: the guard, scroll reset, `imgBaseUrl`, and where a session end leads. */
export function Shell() {
  const location = useLocation();
  const navigate = useNavigate();
  const config = useConfig();

  useEffect(() => {
    setSessionEndHandler(() => navigate('/Login', { replace: true }));
    setNavigateHandler((path) => navigate(path));
  }, [navigate]);

  // spec §2: every navigation scrolls to the top-left.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [location.key]);

  // A sign-in or sign-out ends in a navigation: the socket and the server's hint follow the stored token.
  useEffect(() => {
    realtime.syncAuth();
    mirrorSession();
  }, [location.key]);

  // spec §3: imgBaseUrl is set on every navigation.
  const imgBaseUrl = config.data?.imgBaseUrl;
  useEffect(() => {
    if (imgBaseUrl !== undefined) localStorage.setItem(STORAGE_KEYS.imgBaseUrl, imgBaseUrl);
  }, [location.key, imgBaseUrl]);

  // spec §1: the chat widget receives the stored uid as its name on every navigation.
  // It is off without configuration, and its code loads only when it is on.
  const chat = config.data?.chat ?? null;
  useEffect(() => {
    if (!chat) return;
    const visit = { uid: localStorage.getItem(STORAGE_KEYS.uid), language: storedLanguage() };
    void import('@/features/chat/chat-widget.ts').then(({ syncChat }) => syncChat(chat, visit));
  }, [location.key, chat]);

  const signedInRender = useContext(RenderedSignedIn);
  if (!isOpenPath(location.pathname) && !getToken() && !signedInRender) {
    return <Navigate to="/Login" replace />;
  }
  return (
    <Suspense fallback={<PageFallback />}>
      <Outlet />
    </Suspense>
  );
}
