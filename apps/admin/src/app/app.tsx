import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router';
import { onSessionEnd } from '@/api/http.ts';
import { EnrolPage } from '@/features/auth/enrol-page.tsx';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { useLanguage } from '@/lib/i18n.ts';
import { PAGES } from './pages.ts';
import { HomeRedirect, RequireRole, Shell } from './shell.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** After a 401/411 the console forgets everything it loaded and goes to the sign-in screen. */
function SessionEndRedirect() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionEnd(() => {
        queryClient.clear();
        navigate('/login?expired=1', { replace: true });
      }),
    [navigate],
  );
  return null;
}

export function App() {
  const language = useLanguage();
  return (
    <ConfigProvider
      locale={language === 'zh-CN' ? zhCN : enUS}
      theme={{ token: { colorPrimary: '#1f6feb', borderRadius: 6 } }}
    >
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter basename="/admin">
            <SessionEndRedirect />
            <Routes>
              <Route path="login" element={<LoginPage />} />
              <Route path="enrol" element={<EnrolPage />} />
              <Route element={<Shell />}>
                {PAGES.map((page) => (
                  <Route key={page.path} path={page.path} element={<RequireRole page={page} />} />
                ))}
                <Route index element={<HomeRedirect />} />
                <Route path="*" element={<Navigate to="/" replace />} />
              </Route>
            </Routes>
          </BrowserRouter>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
