import { t } from '../i18n/t.ts';
import type { Backlog, Story, Task } from '../session/fold/session-view.ts';
import { BacklogItemCard } from './BacklogItemCard.tsx';

/** Epics → stories → tasks, each task with its module; items whose parent is unknown are listed apart. */
export function BacklogPanel({ backlog }: { backlog: Backlog }) {
  const { epics, stories, tasks } = backlog;
  if (epics.length + stories.length + tasks.length === 0)
    return <p className="muted">{t('backlog.empty')}</p>;
  const epicIds = new Set(epics.map((epic) => epic.id));
  const storyIds = new Set(stories.map((story) => story.id));
  const orphanStories = stories.filter((story) => !epicIds.has(story.epicId));
  const orphanTasks = tasks.filter((task) => !storyIds.has(task.storyId));
  const taskList = (items: Task[]) =>
    items.length > 0 && (
      <ul className="backlog-list">
        {items.map((task) => (
          <BacklogItemCard
            key={task.id}
            item={task}
            level="task"
            badge={
              <span className={`badge ${task.module ? 'module' : 'muted'}`}>
                {task.module ? t('backlog.module', { module: task.module }) : t('backlog.noModule')}
              </span>
            }
          />
        ))}
      </ul>
    );
  const storyList = (items: Story[]) =>
    items.length > 0 && (
      <ul className="backlog-list">
        {items.map((story) => {
          const own = tasks.filter((task) => task.storyId === story.id);
          return (
            <BacklogItemCard
              key={story.id}
              item={story}
              level="story"
              badge={
                <span className="badge muted">{t('backlog.tasks', { count: own.length })}</span>
              }
            >
              {taskList(own)}
            </BacklogItemCard>
          );
        })}
      </ul>
    );
  return (
    <div data-testid="backlog-panel">
      <ul className="backlog-list">
        {epics.map((epic) => {
          const own = stories.filter((story) => story.epicId === epic.id);
          return (
            <BacklogItemCard
              key={epic.id}
              item={epic}
              level="epic"
              badge={
                <span className="badge muted">{t('backlog.stories', { count: own.length })}</span>
              }
            >
              {storyList(own)}
            </BacklogItemCard>
          );
        })}
      </ul>
      {(orphanStories.length > 0 || orphanTasks.length > 0) && (
        <>
          <h3 className="small">{t('backlog.orphans')}</h3>
          {storyList(orphanStories)}
          {taskList(orphanTasks)}
        </>
      )}
    </div>
  );
}
