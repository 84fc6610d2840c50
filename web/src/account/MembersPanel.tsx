import { useState, type FormEvent } from 'react';
import { getJson, postJson } from '../api/client.ts';
import type { Member, Person } from '../api/types.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';

/** Who belongs to the project; an owner adds people (by their account name) as members or owners. */
export function MembersPanel({ projectId, me }: { projectId: string; me: Person }) {
  const members = useApiData(
    () => getJson('/api/projects/{id}/members', { path: { id: projectId } }),
    projectId,
  );
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Member['role']>('member');
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({
    busy: false,
    error: null,
  });
  const isOwner =
    members.data?.members.some((member) => member.person_id === me.id && member.role === 'owner') ??
    false;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setState({ busy: true, error: null });
    try {
      await postJson('/api/projects/{id}/members', {
        path: { id: projectId },
        body: { username: username.trim(), role },
      });
      setUsername('');
      setState({ busy: false, error: null });
      members.reload();
    } catch (error) {
      setState({ busy: false, error });
    }
  };

  return (
    <section className="panel" data-testid="members-panel">
      <h2>{t('account.members.title')}</h2>
      {members.error !== null && <ErrorMessage error={members.error} />}
      {members.data && (
        <ul className="link-list" data-testid="member-list">
          {members.data.members.map((member) => (
            <li
              key={member.person_id}
              data-testid="member"
              data-username={member.username}
              data-role={member.role}
            >
              {member.username}{' '}
              <span className="badge muted">
                {t(member.role === 'owner' ? 'account.members.owner' : 'account.members.member')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {isOwner && (
        <form className="inline-form" onSubmit={add}>
          <label htmlFor="member-username">{t('account.members.add.label')}</label>
          <div className="row">
            <input
              id="member-username"
              data-testid="member-username-input"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              placeholder={t('account.members.add.placeholder')}
              required
            />
            <select
              aria-label={t('account.members.add.role')}
              data-testid="member-role-select"
              value={role}
              onChange={(event) => setRole(event.target.value as Member['role'])}
            >
              <option value="member">{t('account.members.member')}</option>
              <option value="owner">{t('account.members.owner')}</option>
            </select>
            <button type="submit" data-testid="add-member" disabled={state.busy}>
              {t('account.members.add.submit')}
            </button>
          </div>
          {state.error !== null && <ErrorMessage error={state.error} />}
        </form>
      )}
    </section>
  );
}
