import { Link } from '../components/Link.tsx';
import { t } from '../i18n/t.ts';

export function NotFoundPage({ path }: { path: string }) {
  return (
    <main className="page narrow" data-testid="not-found-page">
      <h1>{t('app.notFound.title')}</h1>
      <p>{t('app.notFound.body', { path })}</p>
      <Link to="/">{t('app.backToProjects')}</Link>
    </main>
  );
}
