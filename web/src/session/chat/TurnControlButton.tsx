import { useState } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { t } from '../../i18n/t.ts';

type Verb = 'stop' | 'retry' | 'regenerate';

/** Stop, Retry or Regenerate on one turn (ADR 0220); the stream brings what happens next. */
export function TurnControlButton({
  sessionId,
  turnId,
  verb,
}: {
  sessionId: string;
  turnId: string;
  verb: Verb;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await postJson(`/api/sessions/{id}/turns/{turnId}/${verb}`, {
        path: { id: sessionId, turnId },
      });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="turn-control">
      <button
        type="button"
        className="small"
        data-testid={`turn-${verb}`}
        data-turn-id={turnId}
        disabled={busy}
        onClick={() => void run()}
      >
        {t(`turn.${verb}`)}
      </button>
      {error !== null && <ErrorMessage error={error} testId={`turn-${verb}-error`} />}
    </span>
  );
}
