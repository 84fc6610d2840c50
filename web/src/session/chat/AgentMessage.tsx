import { memo, useState } from 'react';
import { Link } from '../../components/Link.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import { turnTracePath } from '../../routing/match-route.ts';
import type { AnswerVersion } from '../answer-versions.ts';
import { TurnControlButton } from './TurnControlButton.tsx';

type AgentMessageProps = {
  seq: number;
  agent: string;
  text: string;
  sessionId: string;
  /** The turn to regenerate when this is the lane's last answer and may be regenerated (ADR 0220). */
  regenerateTurnId: string | null;
  /** The turn this answer ended, opened in its trace (ADR 0411); null when the answer names no turn. */
  traceTurnId: string | null;
  stopped?: boolean;
  /** Every version of a regenerated answer, oldest first, this one last (ADR 0408). */
  versions?: AnswerVersion[] | undefined;
  /** The UI's language: a switch re-renders the memoised message. */
  language?: string;
};

/**
 * What an agent said (stored). The tools it called are in the turn's steps row, not here. Memoised on its
 * values and its versions' event ids: a stored answer never changes, so a new event re-renders none.
 */
export const AgentMessage = memo(function AgentMessage({
  seq,
  agent,
  text,
  sessionId,
  regenerateTurnId,
  traceTurnId,
  stopped,
  versions,
}: AgentMessageProps) {
  const count = versions?.length ?? 1;
  // The newest version unless the person paged back; a new version shows itself.
  const [picked, setPicked] = useState<{ index: number; of: number } | null>(null);
  const shown = picked !== null && picked.of === count ? picked.index : count - 1;
  const shownText = versions?.[shown]?.text ?? text;
  if (shownText.trim() === '') return null;
  return (
    <li
      className="message agent"
      data-testid="message-agent"
      data-seq={seq}
      data-agent={agent}
      data-stopped={stopped === true && shown === count - 1 ? 'true' : undefined}
    >
      <span className="author">{agentName(agent)}</span>
      <Markdown text={shownText} />
      {stopped === true && shown === count - 1 && (
        <p className="muted stopped-note">{t('turn.stoppedNote')}</p>
      )}
      {(regenerateTurnId !== null || traceTurnId !== null || count > 1) && (
        <div className="message-actions">
          {traceTurnId !== null && (
            <Link to={turnTracePath(sessionId, traceTurnId)} testId="turn-trace-link">
              {t('trace.open')}
            </Link>
          )}
          {count > 1 && (
            <VersionPager
              shown={shown}
              count={count}
              onShow={(index) => setPicked({ index, of: count })}
            />
          )}
          {regenerateTurnId !== null && (
            <TurnControlButton sessionId={sessionId} turnId={regenerateTurnId} verb="regenerate" />
          )}
        </div>
      )}
    </li>
  );
}, sameMessage);

function sameMessage(before: AgentMessageProps, after: AgentMessageProps): boolean {
  return (
    before.seq === after.seq &&
    before.agent === after.agent &&
    before.text === after.text &&
    before.sessionId === after.sessionId &&
    before.regenerateTurnId === after.regenerateTurnId &&
    before.stopped === after.stopped &&
    before.language === after.language &&
    (before.versions ?? []).map((version) => version.eventId).join() ===
      (after.versions ?? []).map((version) => version.eventId).join()
  );
}

/** ‹ 1/2 ›: which version of a regenerated answer is shown, and the buttons to the others. */
function VersionPager({
  shown,
  count,
  onShow,
}: {
  shown: number;
  count: number;
  onShow: (index: number) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of controls, not a form's fieldset
    <span
      className="answer-versions"
      role="group"
      aria-label={t('versions.label')}
      data-testid="answer-versions"
    >
      <button
        type="button"
        className="small-button"
        data-testid="version-previous"
        aria-label={t('versions.previous')}
        disabled={shown === 0}
        onClick={() => onShow(shown - 1)}
      >
        ‹
      </button>
      <span data-testid="version-position" aria-live="polite" aria-atomic="true">
        <span aria-hidden="true">
          {shown + 1}/{count}
        </span>
        <span className="visually-hidden">
          {t('versions.position', { index: shown + 1, count })}
        </span>
      </span>
      <button
        type="button"
        className="small-button"
        data-testid="version-next"
        aria-label={t('versions.next')}
        disabled={shown === count - 1}
        onClick={() => onShow(shown + 1)}
      >
        ›
      </button>
    </span>
  );
}
