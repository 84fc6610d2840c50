import { lazy, Suspense } from 'react';
import { SignInPage } from './account/SignInPage.tsx';
import { useMe } from './account/use-me.ts';
import type { Person } from './api/types.ts';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { ErrorMessage } from './components/ErrorMessage.tsx';
import { Link } from './components/Link.tsx';
import { ModelHealthBanner } from './components/ModelHealthBanner.tsx';
import { LanguageSwitch } from './i18n/LanguageSwitch.tsx';
import { t } from './i18n/t.ts';
import { useLanguage } from './i18n/use-language.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { SessionPage } from './pages/SessionPage.tsx';
import type { Route } from './routing/match-route.ts';
import { ThemeToggle } from './theme/ThemeToggle.tsx';
import { useRoute } from './routing/use-route.ts';

// The session page is in the first chunk (a long session must be usable at once); every other page is a chunk of
// its own, loaded when first shown (ADR 0424).
const ProjectsPage = lazy(() =>
  import('./pages/ProjectsPage.tsx').then((module) => ({ default: module.ProjectsPage })),
);
const ProjectPage = lazy(() =>
  import('./pages/ProjectPage.tsx').then((module) => ({ default: module.ProjectPage })),
);
const TurnTracePage = lazy(() =>
  import('./pages/TurnTracePage.tsx').then((module) => ({ default: module.TurnTracePage })),
);

/**
 * The app shell: a header (with who is signed in, when accounts are in use) and the page the path names,
 * each page behind its own error boundary; the sign-in page while nobody is signed in.
 */
export function App() {
  // Subscribing here re-renders every page in the new language when the header's switch changes it.
  useLanguage();
  const route = useRoute();
  const account = useMe();
  const person = account.state.status === 'ready' ? account.state.me.person : null;
  return (
    <>
      <header className="app-header">
        <Link to="/" className="brand">
          {t('app.name')}
        </Link>
        <span className="muted small tagline">{t('app.tagline')}</span>
        <ThemeToggle />
        <LanguageSwitch />
        {person !== null && (
          <span className="account small" data-testid="signed-in-as" data-person-id={person.id}>
            {t('account.signedInAs', { name: person.username })}{' '}
            <button type="button" data-testid="sign-out" onClick={() => void account.signOut()}>
              {t('account.signOut')}
            </button>
          </span>
        )}
      </header>
      <ModelHealthBanner />
      {account.state.status === 'loading' && <p className="page muted">{t('common.loading')}</p>}
      {account.state.status === 'failed' && (
        <main className="page narrow">
          <ErrorMessage error={account.state.error} />
          <button type="button" onClick={account.reload}>
            {t('common.retry')}
          </button>
        </main>
      )}
      {account.state.status === 'signed-out' && <SignInPage onSignedIn={account.signedIn} />}
      {account.state.status === 'ready' && (
        <ErrorBoundary resetKey={routeKey(route)}>
          <Suspense fallback={<p className="page muted">{t('common.loading')}</p>}>
            <Page route={route} person={person} />
          </Suspense>
        </ErrorBoundary>
      )}
    </>
  );
}

function Page({ route, person }: { route: Route; person: Person | null }) {
  switch (route.page) {
    case 'projects':
      return <ProjectsPage />;
    case 'project':
      return <ProjectPage key={route.projectId} projectId={route.projectId} person={person} />;
    case 'session':
      return <SessionPage key={route.sessionId} sessionId={route.sessionId} />;
    case 'turn-trace':
      return <TurnTracePage key={route.turnId} sessionId={route.sessionId} turnId={route.turnId} />;
    case 'not-found':
      return <NotFoundPage path={route.path} />;
  }
}

function routeKey(route: Route): string {
  return JSON.stringify(route);
}
