import { useState, type FormEvent } from 'react';
import { getJson, postJson } from '../api/client.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Link } from '../components/Link.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';
import { projectPath } from '../routing/match-route.ts';
import { navigate } from '../routing/navigate.ts';

/** The list of projects and a form to create one. */
export function ProjectsPage() {
  const projects = useApiData(() => getJson('/api/projects'), 'projects');
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<unknown>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const project = await postJson('/api/projects', { body: { name } });
      navigate(projectPath(project.id));
    } catch (error) {
      setCreateError(error);
      setCreating(false);
    }
  };

  return (
    <main className="page narrow" data-testid="projects-page">
      <h1>{t('projects.title')}</h1>
      <section className="panel">
        {projects.error !== null && <ErrorMessage error={projects.error} />}
        {projects.loading && projects.data === null && (
          <p className="muted">{t('common.loading')}</p>
        )}
        {projects.data && projects.data.projects.length === 0 && (
          <p className="muted">{t('projects.empty')}</p>
        )}
        {projects.data && projects.data.projects.length > 0 && (
          <ul className="link-list" data-testid="project-list">
            {projects.data.projects.map((project) => (
              <li key={project.id}>
                <Link
                  to={projectPath(project.id)}
                  testId="project-link"
                  data={{ 'project-id': project.id }}
                >
                  {project.name}
                </Link>
                <span className="muted small">
                  {t('common.created', { when: new Date(project.created_at).toLocaleString() })}
                </span>
              </li>
            ))}
          </ul>
        )}
        <form className="inline-form" onSubmit={create}>
          <label htmlFor="project-name">{t('projects.new.label')}</label>
          <div className="row">
            <input
              id="project-name"
              data-testid="project-name-input"
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder={t('projects.new.placeholder')}
              maxLength={200}
              required
            />
            <button
              type="submit"
              className="primary"
              data-testid="create-project"
              disabled={creating || name.trim() === ''}
            >
              {creating ? t('projects.new.creating') : t('projects.new.submit')}
            </button>
          </div>
          {createError !== null && <ErrorMessage error={createError} />}
        </form>
      </section>
    </main>
  );
}
