import type { ReactNode } from 'react';
import { t } from '../i18n/t.ts';
import type { BacklogItem } from '../session/fold/session-view.ts';

type BacklogItemCardProps = {
  item: BacklogItem;
  level: 'epic' | 'story' | 'task';
  badge?: ReactNode;
  children?: ReactNode;
};

/** An epic, story or task: id, title, description, acceptance criteria (folded), and what it contains. */
export function BacklogItemCard({ item, level, badge, children }: BacklogItemCardProps) {
  return (
    <li className={`backlog-item ${level}`} data-testid={`backlog-${level}`} data-id={item.id}>
      <div className="backlog-head">
        <code className="backlog-id">{item.id}</code> <strong>{item.title}</strong> {badge}
      </div>
      {item.description && <p className="small">{item.description}</p>}
      {item.acceptanceCriteria.length > 0 && (
        <details>
          <summary className="small">
            {t('backlog.criteria')} ({item.acceptanceCriteria.length})
          </summary>
          <ul className="small">
            {item.acceptanceCriteria.map((criterion, index) => (
              <li key={index}>{criterion}</li>
            ))}
          </ul>
        </details>
      )}
      {children}
    </li>
  );
}
