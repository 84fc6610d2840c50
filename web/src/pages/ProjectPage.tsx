import { useState, type FormEvent } from 'react';
import { getJson, postJson } from '../api/client.ts';
import { MembersPanel } from '../account/MembersPanel.tsx';
import type { Person } from '../api/types.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Link } from '../components/Link.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';
import { sessionPath } from '../routing/match-route.ts';
import { navigate } from '../routing/navigate.ts';
import { ProjectBudgetForm } from './ProjectBudgetForm.tsx';

/** One project: its sessions, a form to open one, its token budget, and its members when accounts are in use. */
export function ProjectPage({ projectId, person }: { projectId: string; person: Person | null }) {
  const project = useApiData(
    () => getJson('/api/projects/{id}', { path: { id: projectId } }),
    projectId,
  );
  const sessions = useApiData(
    () => getJson('/api/projects/{id}/sessions', { path: { id: projectId } }),
    projectId,
  );
  const [title, setTitle] = useState('');
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<unknown>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const session = await postJson('/api/projects/{id}/sessions', {
        path: { id: projectId },
        body: title.trim() === '' ? {} : { title: title.trim() },
      });
      navigate(sessionPath(session.id));
    } catch (error) {
      setCreateError(error);
      setCreating(false);
    }
  };

  if (project.error !== null)
    return (
      <main className="page narrow">
        <ErrorMessage error={project.error} />
        <Link to="/">{t('app.backToProjects')}</Link>
      </main>
    );
  return (
    <main className="page narrow" data-testid="project-page">
      <nav className="breadcrumb">
        <Link to="/">{t('projects.title')}</Link>
      </nav>
      <h1 data-testid="project-title">{project.data?.name ?? t('common.loading')}</h1>
      <section className="panel">
        <h2>{t('project.sessions')}</h2>
        {sessions.error !== null && <ErrorMessage error={sessions.error} />}
        {sessions.data && sessions.data.sessions.length === 0 && (
          <p className="muted">{t('project.sessionsEmpty')}</p>
        )}
        {sessions.data && sessions.data.sessions.length > 0 && (
          <ul className="link-list" data-testid="session-list">
            {sessions.data.sessions.map((session) => (
              <li key={session.id}>
                <Link
                  to={sessionPath(session.id)}
                  testId="session-link"
                  data={{ 'session-id': session.id }}
                >
                  {session.title ?? t('project.untitledSession')}
                </Link>
                <span className="muted small">
                  {t('project.sessionEvents', { count: session.last_seq })} ·{' '}
                  {t('common.created', { when: new Date(session.created_at).toLocaleString() })}
                </span>
              </li>
            ))}
          </ul>
        )}
        <form className="inline-form" onSubmit={create}>
          <label htmlFor="session-title">{t('project.newSession.label')}</label>
          <div className="row">
            <input
              id="session-title"
              data-testid="session-title-input"
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              placeholder={t('project.newSession.placeholder')}
              maxLength={200}
            />
            <button
              type="submit"
              className="primary"
              data-testid="create-session"
              disabled={creating}
            >
              {creating ? t('project.newSession.creating') : t('project.newSession.submit')}
            </button>
          </div>
          {createError !== null && <ErrorMessage error={createError} />}
        </form>
      </section>
      <ProjectBudgetForm projectId={projectId} />
      {person !== null && <MembersPanel projectId={projectId} me={person} />}
    </main>
  );
}
