import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Link } from './components/Link.tsx';
import { ModelHealthBanner } from './components/ModelHealthBanner.tsx';
import { t } from './i18n/t.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { ProjectPage } from './pages/ProjectPage.tsx';
import { ProjectsPage } from './pages/ProjectsPage.tsx';
import { SessionPage } from './pages/SessionPage.tsx';
import type { Route } from './routing/match-route.ts';
import { useRoute } from './routing/use-route.ts';

/** The app shell: a header and the page the path names, each page behind its own error boundary. */
export function App() {
  const route = useRoute();
  return (
    <>
      <header className="app-header">
        <Link to="/" className="brand">
          {t('app.name')}
        </Link>
        <span className="muted small">{t('app.tagline')}</span>
      </header>
      <ModelHealthBanner />
      <ErrorBoundary resetKey={routeKey(route)}>
        <Page route={route} />
      </ErrorBoundary>
    </>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'projects':
      return <ProjectsPage />;
    case 'project':
      return <ProjectPage key={route.projectId} projectId={route.projectId} />;
    case 'session':
      return <SessionPage key={route.sessionId} sessionId={route.sessionId} />;
    case 'not-found':
      return <NotFoundPage path={route.path} />;
  }
}

function routeKey(route: Route): string {
  return JSON.stringify(route);
}
