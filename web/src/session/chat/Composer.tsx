import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { agentName } from '../../i18n/agent-name.ts';
import { t } from '../../i18n/t.ts';
import { COMPOSE_EVENT, type ComposeDetail } from '../needs-you/go-to.ts';
import { addressMessage } from './address-message.ts';

/**
 * The message box, with the agent it goes to: the picker (default: the session's current addressee) or
 * `@slug` at the start of the message. Enter sends, Shift+Enter breaks the line; the message appears when
 * the log has it.
 */
export function Composer({
  sessionId,
  activeAgents = [],
  addressee = null,
}: {
  sessionId: string;
  activeAgents?: string[];
  addressee?: string | null;
}) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  // The needs-you list asks to write to an agent: pick it (when active) and put the cursor in the box.
  useEffect(() => {
    const onCompose = (event: Event) => {
      const { to } = (event as CustomEvent<ComposeDetail>).detail;
      if (activeAgents.includes(to)) setPicked(to);
      input.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      input.current?.focus({ preventScroll: true });
    };
    window.addEventListener(COMPOSE_EVENT, onCompose);
    return () => window.removeEventListener(COMPOSE_EVENT, onCompose);
  }, [activeAgents]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() === '' || sending) return;
    setSending(true);
    setError(null);
    try {
      const message = addressMessage(text, picked, activeAgents);
      await postJson('/api/sessions/{id}/messages', {
        path: { id: sessionId },
        body: message.to === null ? { text: message.text } : { text: message.text, to: message.to },
      });
      setText('');
    } catch (failure) {
      setError(failure);
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form className="composer" onSubmit={send}>
      {activeAgents.length > 1 && (
        <label className="addressee" title={t('chat.to.hint')}>
          {t('chat.to.label')}{' '}
          <select
            data-testid="addressee-picker"
            value={picked ?? ''}
            onChange={(event) => setPicked(event.target.value === '' ? null : event.target.value)}
          >
            <option value="">
              {addressee === null ? '—' : t('chat.to.default', { agent: agentName(addressee) })}
            </option>
            {activeAgents.map((agent) => (
              <option key={agent} value={agent}>
                {agentName(agent)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label htmlFor="message-input" className="visually-hidden">
        {t('chat.input.label')}
      </label>
      <textarea
        id="message-input"
        ref={input}
        data-testid="message-input"
        rows={2}
        value={text}
        placeholder={t('chat.input.placeholder')}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        maxLength={32_000}
      />
      <button
        type="submit"
        className="primary"
        data-testid="send-message"
        disabled={sending || text.trim() === ''}
      >
        {sending ? t('chat.sending') : t('chat.send')}
      </button>
      {error !== null && <ErrorMessage error={error} testId="send-error" />}
    </form>
  );
}
