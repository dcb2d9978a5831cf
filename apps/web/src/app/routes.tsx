import { Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import PageLoader from '../components/PageLoader';
import { ScreenContext, type Screen } from '../lib/screen';
import { SCREENS } from './screens';
import { Guard } from './guards';
import { PublicLayout } from './layouts/public/PublicLayout';
import { PanelLayout } from './layouts/panel/PanelLayout';

function ScrollTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [pathname]);
  return null;
}

function element(s: Screen) {
  const Page = s.page;
  return (
    <ScreenContext.Provider value={s}>
      <Guard access={s.access}>
        <Suspense fallback={<PageLoader />}>
          <Page />
        </Suspense>
      </Guard>
    </ScreenContext.Provider>
  );
}

const notFound = (layout: Screen['layout']) => SCREENS.find((s) => s.id === 'notFound' && s.layout === layout);

/** Routes built from every feature's screen.ts, plus the /panel landing redirect and the catch-alls. */
export function AppRoutes() {
  const publicScreens = SCREENS.filter((s) => s.layout === 'public');
  const panelScreens = SCREENS.filter((s) => s.layout === 'panel');
  const publicMissing = notFound('public');
  const panelMissing = notFound('panel');
  return (
    <>
      <ScrollTop />
      <Routes>
        <Route element={<PublicLayout />}>
          {publicScreens.map((s) => (
            <Route key={s.path} path={s.path} element={element(s)} />
          ))}
          {publicMissing && <Route path="*" element={element(publicMissing)} />}
        </Route>
        <Route path="/panel" element={<PanelLayout />}>
          <Route index element={<Navigate to="/panel/dashboard" replace />} />
          {panelScreens.map((s) => (
            <Route key={s.path} path={s.path} element={element(s)} />
          ))}
          {panelMissing && <Route path="*" element={element(panelMissing)} />}
        </Route>
      </Routes>
    </>
  );
}
