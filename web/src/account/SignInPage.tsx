import { useState, type FormEvent } from 'react';
import { postJson } from '../api/client.ts';
import type { Person } from '../api/types.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { t } from '../i18n/t.ts';

/** Name and password; the server answers with an HttpOnly session cookie the page never sees. */
export function SignInPage({ onSignedIn }: { onSignedIn: (person: Person) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({
    busy: false,
    error: null,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ busy: true, error: null });
    try {
      onSignedIn(
        await postJson('/api/auth/sign-in', { body: { username: username.trim(), password } }),
      );
    } catch (error) {
      setState({ busy: false, error });
    }
  };

  return (
    <main className="page narrow" data-testid="sign-in-page">
      <section className="panel">
        <h1>{t('account.signIn.title')}</h1>
        <form className="inline-form" onSubmit={submit}>
          <label htmlFor="sign-in-username">{t('account.signIn.username')}</label>
          <input
            id="sign-in-username"
            data-testid="sign-in-username"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            required
          />
          <label htmlFor="sign-in-password">{t('account.signIn.password')}</label>
          <input
            id="sign-in-password"
            data-testid="sign-in-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
          <div className="buttons">
            <button
              type="submit"
              className="primary"
              data-testid="sign-in-submit"
              disabled={state.busy}
            >
              {state.busy ? t('account.signIn.signingIn') : t('account.signIn.submit')}
            </button>
          </div>
          {state.error !== null && <ErrorMessage error={state.error} />}
        </form>
      </section>
    </main>
  );
}
