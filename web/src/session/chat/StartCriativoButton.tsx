import { useState } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { t } from '../../i18n/t.ts';

/** Criativo is the one agent a person starts; the chat becomes the agent chat when `agent.activated` arrives. */
export function StartCriativoButton({ sessionId }: { sessionId: string }) {
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      await postJson('/api/sessions/{id}/agents/{slug}/start', {
        path: { id: sessionId, slug: 'criativo' },
      });
    } catch (failure) {
      setError(failure);
      setStarting(false);
    }
  };
  return (
    <div className="start-agent">
      <p className="muted">{t('chat.humanHint')}</p>
      <button
        type="button"
        className="primary"
        data-testid="start-criativo"
        disabled={starting}
        onClick={() => void start()}
      >
        {starting ? t('chat.starting') : t('chat.startCriativo')}
      </button>
      {error !== null && <ErrorMessage error={error} testId="start-error" />}
    </div>
  );
}
