import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { postJson } from '../../api/client.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { t } from '../../i18n/t.ts';

/** The message box. Enter sends, Shift+Enter breaks the line; the message appears when the log has it. */
export function Composer({ sessionId }: { sessionId: string }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() === '' || sending) return;
    setSending(true);
    setError(null);
    try {
      await postJson(`/api/sessions/${encodeURIComponent(sessionId)}/messages`, { text });
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
      <label htmlFor="message-input" className="visually-hidden">
        {t('chat.input.label')}
      </label>
      <textarea id="message-input" data-testid="message-input" rows={2} value={text} placeholder={t('chat.input.placeholder')} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} maxLength={32_000} />
      <button type="submit" className="primary" data-testid="send-message" disabled={sending || text.trim() === ''}>
        {sending ? t('chat.sending') : t('chat.send')}
      </button>
      {error !== null && <ErrorMessage error={error} testId="send-error" />}
    </form>
  );
}
