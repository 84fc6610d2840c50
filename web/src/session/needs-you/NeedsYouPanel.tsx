import { useState } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import type { NeedsYouItem } from '../fold/needs-you.ts';
import { composeTo, goTo } from './go-to.ts';
import { QuestionAnswer } from './QuestionAnswer.tsx';

/**
 * Everything that waits for the person, oldest first, each with the button that takes them where they act;
 * with two or more developer handoffs offered, one button accepts them all. Folded from the log, so it moves
 * live whoever acted.
 */
export function NeedsYouPanel({ sessionId, items }: { sessionId: string; items: NeedsYouItem[] }) {
  const devHandoffs = items.filter((item) => item.kind === 'handoff' && item.to.startsWith('dev:'));
  return (
    <section
      className={items.length > 0 ? 'panel needs-you attention' : 'panel needs-you'}
      data-testid="needs-you-panel"
      data-count={items.length}
      aria-labelledby="needs-you-title"
    >
      <h2 id="needs-you-title">
        {t('needsYou.title')}{' '}
        {items.length > 0 && (
          <span className="count attention" data-testid="needs-you-count">
            {items.length}
          </span>
        )}
      </h2>
      {items.length === 0 ? (
        <p className="muted small">{t('needsYou.empty')}</p>
      ) : (
        <ul className="needs-you-list">
          {items.map((item) => (
            <NeedsYouRow key={`${item.kind}-${item.seq}`} sessionId={sessionId} item={item} />
          ))}
        </ul>
      )}
      {devHandoffs.length >= 2 && (
        <AcceptAllDevHandoffs sessionId={sessionId} count={devHandoffs.length} />
      )}
    </section>
  );
}

function NeedsYouRow({ sessionId, item }: { sessionId: string; item: NeedsYouItem }) {
  if (item.kind === 'question')
    return (
      <li
        className="needs-you-item kind-question"
        data-testid="needs-you-item"
        data-kind="question"
        data-seq={item.seq}
        data-question-id={item.questionId}
      >
        <span>{t('needsYou.question', { agent: agentName(item.agent) })}</span>
        <p className="question-text" data-testid="question-text">
          {item.question}
        </p>
        {item.why !== null && (
          <p className="muted small">{t('needsYou.question.why', { why: item.why })}</p>
        )}
        <QuestionAnswer sessionId={sessionId} questionId={item.questionId} options={item.options} />
      </li>
    );
  const { text, go, label } = describe(sessionId, item);
  return (
    <li
      className={`needs-you-item kind-${item.kind}${item.kind === 'action' && item.risky ? ' risky' : ''}`}
      data-testid="needs-you-item"
      data-kind={item.kind}
      data-seq={item.seq}
    >
      <span>{text}</span>
      <button type="button" className="small-button" data-testid="needs-you-go" onClick={go}>
        {label}
      </button>
    </li>
  );
}

function describe(
  sessionId: string,
  item: Exclude<NeedsYouItem, { kind: 'question' }>,
): { text: string; label: string; go: () => void } {
  switch (item.kind) {
    case 'instructions':
      // Accepted, the item leaves with the event the stream brings; a refusal (already accepted) changes nothing.
      return {
        text: t('needsYou.instructions', { paths: item.paths.join(', ') }),
        label: t('needsYou.go.instructions'),
        go: () =>
          void postJson('/api/sessions/{id}/instructions/accept', {
            path: { id: sessionId },
          }).catch(() => undefined),
      };
    case 'handoff':
      return {
        text: t('needsYou.handoff', { from: agentName(item.from), to: agentName(item.to) }),
        label: t('needsYou.go.handoff'),
        go: () =>
          goTo(
            `[data-testid="handoff-divider"][data-handoff-id="${CSS.escape(item.handoffId)}"]`,
            'accept-handoff',
          ),
      };
    case 'action':
      return {
        text: t(item.risky ? 'needsYou.actionRisky' : 'needsYou.action', {
          agent: agentName(item.agent),
          tool: item.tool,
        }),
        label: t('needsYou.go.action'),
        go: () =>
          goTo(
            `[data-testid="pending-action"][data-action-id="${CSS.escape(item.actionId)}"]`,
            // A risky action is read first: the card takes focus, never "Approve anyway".
            item.risky ? undefined : 'approve-action',
          ),
      };
    case 'idle':
      // Nudged, the lane owes a turn and leaves the list when the idle lanes are read again.
      return {
        text: t('needsYou.idle', {
          agent: agentName(item.agent),
          tasks: item.unfinished.join(', '),
        }),
        label: t('needsYou.go.idle'),
        go: () =>
          void postJson('/api/sessions/{id}/agents/{slug}/nudge', {
            path: { id: sessionId, slug: item.agent },
          }).catch(() => undefined),
      };
    case 'merge':
      return {
        text: t('needsYou.merge', { commit: item.devCommit.slice(0, 12) }),
        label: t('needsYou.go.merge'),
        go: () => goTo('[data-testid="line-end"]', 'merge-into-main'),
      };
    case 'block':
      return {
        text: t('needsYou.block', {
          agent: agentName(item.agent),
          modulo: item.modulo,
          falta: item.falta,
        }),
        label: t('needsYou.go.block'),
        go: () => composeTo('arquiteto'),
      };
    case 'failed':
      return {
        text: t('needsYou.failed', { agent: agentName(item.agent) }),
        label: t('needsYou.go.failed', { agent: agentName(item.agent) }),
        // To the failed note's Retry when the turn can be retried; otherwise to the message box.
        go: () => {
          const note = `[data-testid="turn-failed"][data-seq="${item.seq}"]`;
          goTo(note, 'turn-retry');
          if (document.querySelector(`${note} [data-testid="turn-retry"]`) === null)
            composeTo(item.agent);
        },
      };
  }
}

/** `POST /api/sessions/:id/dev-handoffs/accept`: every offered developer handoff at once. */
function AcceptAllDevHandoffs({ sessionId, count }: { sessionId: string; count: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const acceptAll = async () => {
    setBusy(true);
    setError(null);
    try {
      await postJson('/api/sessions/{id}/dev-handoffs/accept', { path: { id: sessionId } });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row buttons">
      <button
        type="button"
        className="primary"
        data-testid="accept-all-dev-handoffs"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void acceptAll()}
      >
        {busy ? t('needsYou.acceptingAll') : t('needsYou.acceptAll', { count })}
      </button>
      {error !== null && <ErrorMessage error={error} testId="accept-all-error" />}
    </div>
  );
}
