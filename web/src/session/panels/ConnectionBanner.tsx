import { t } from '../../i18n/t.ts';
import type { Connection } from '../stream-reducer.ts';

/** Shown while the live stream is down; the page keeps what it has and catches up when it is back. */
export function ConnectionBanner({ connection }: { connection: Connection }) {
  if (connection !== 'reconnecting') return null;
  return (
    <div className="banner warning" role="status" data-testid="connection-banner">
      <span className="spinner" aria-hidden="true" />
      {t('connection.reconnecting')}
    </div>
  );
}
