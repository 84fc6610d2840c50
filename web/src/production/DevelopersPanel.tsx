import { t } from '../i18n/t.ts';
import { currentDeclaration } from '../session/fold/current-declaration.ts';
import type { DevProgress, SessionView } from '../session/fold/session-view.ts';
import { DevCard } from './DevCard.tsx';
import { devStatus } from './dev-status.ts';
import { TerminalModeNote } from './TerminalModeNote.tsx';

/** A card per dev agent, and per module of the current map that has none yet. */
export function DevelopersPanel({ view }: { view: SessionView }) {
  const known = new Set(view.devs.map((progress) => progress.module));
  const waitingModules = (currentDeclaration(view.moduleMaps)?.data.modules ?? []).filter(
    (module) => !known.has(module.name),
  );
  const placeholders: DevProgress[] = waitingModules.map((module) => ({
    agent: `dev:${module.name}`,
    module: module.name,
    activeSince: null,
    finished: [],
    blocks: [],
    lastSaid: null,
    failures: 0,
  }));
  const all = [...view.devs, ...placeholders].sort((a, b) => a.module.localeCompare(b.module));
  if (all.length === 0) return <p className="muted">{t('devs.empty')}</p>;
  return (
    <>
      <TerminalModeNote />
      <ul className="cards grid" data-testid="dev-panel">
        {all.map((progress) => (
          <DevCard
            key={progress.agent}
            progress={progress}
            status={devStatus(progress, view.openTurns)}
            taskCount={view.backlog.tasks.filter((task) => task.module === progress.module).length}
          />
        ))}
      </ul>
    </>
  );
}
