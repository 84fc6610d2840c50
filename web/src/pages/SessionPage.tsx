import { useEffect, useMemo } from 'react';
import { getJson } from '../api/client.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Link } from '../components/Link.tsx';
import { useApiData } from '../components/use-api-data.ts';
import { t } from '../i18n/t.ts';
import { CommitProjectContext } from '../production/CommitLink.tsx';
import { LineEndPanel } from '../production/LineEndPanel.tsx';
import {
  preloadProductionPanel,
  ProductionPanelLater,
} from '../production/ProductionPanelLater.tsx';
import { projectPath } from '../routing/match-route.ts';
import { ChatPanel } from '../session/chat/ChatPanel.tsx';
import { lineStage } from '../session/fold/line-stage.ts';
import { needsYou, pageTitle } from '../session/fold/needs-you.ts';
import { useSessionView } from '../session/fold/use-session-view.ts';
import { LineStepper } from '../session/LineStepper.tsx';
import { lastAnswerOf } from '../session/announce.ts';
import { answerVersions } from '../session/answer-versions.ts';
import { LiveAnnouncer } from '../session/LiveAnnouncer.tsx';
import { currentDeclaration } from '../session/fold/current-declaration.ts';
import { NeedsYouPanel } from '../session/needs-you/NeedsYouPanel.tsx';
import { useIdleLanes } from '../session/needs-you/use-idle-lanes.ts';
import { BriefCard } from '../session/panels/BriefCard.tsx';
import { ConnectionBanner } from '../session/panels/ConnectionBanner.tsx';
import { ModelStatusBanner } from '../session/panels/ModelStatusBanner.tsx';
import { PendingActionsPanel } from '../session/panels/PendingActionsPanel.tsx';
import { RulesPanel } from '../session/panels/RulesPanel.tsx';
import { UsagePanel } from '../session/panels/UsagePanel.tsx';
import { useSessionStream } from '../session/use-session-stream.ts';

/** A session: the chat, what it produced (rules, brief, backlog, architecture, developers), usage, live. */
export function SessionPage({ sessionId }: { sessionId: string }) {
  const path = { id: sessionId };
  const session = useApiData(() => getJson('/api/sessions/{id}', { path }), sessionId);
  const projectId = session.data?.project_id ?? null;
  const project = useApiData(
    () =>
      projectId
        ? getJson('/api/projects/{id}', { path: { id: projectId } })
        : Promise.resolve(null),
    projectId ?? '',
  );
  const state = useApiData(() => getJson('/api/sessions/{id}/state', { path }), sessionId);
  const stream = useSessionStream(sessionId);
  const view = useSessionView(stream.events);
  const idleLanes = useIdleLanes(sessionId, view.lastSeq);
  const waitingItems = useMemo(() => needsYou({ ...view, idleLanes }), [view, idleLanes]);
  const versions = useMemo(() => answerVersions(stream.events), [stream.events]);
  const waiting = waitingItems.length;
  useEffect(preloadProductionPanel, []);
  useEffect(() => {
    document.title = pageTitle(waiting);
    return () => {
      document.title = pageTitle(0);
    };
  }, [waiting]);

  if (session.error !== null || stream.phase === 'failed') {
    return (
      <main className="page narrow" data-testid="session-page">
        <p className="error" role="alert" data-testid="session-load-error">
          {t('session.loadFailed', { message: describe(session.error ?? stream.error) })}
        </p>
        <div className="row">
          <button type="button" onClick={() => window.location.reload()}>
            {t('common.retry')}
          </button>
          <Link to="/">{t('app.backToProjects')}</Link>
        </div>
      </main>
    );
  }
  const model = state.data?.model;
  return (
    <CommitProjectContext value={projectId}>
      <main className="page session" data-testid="session-page" data-last-seq={view.lastSeq}>
        <header className="session-header">
          <nav className="breadcrumb">
            <Link to="/">{t('projects.title')}</Link>
            {projectId && (
              <>
                {' › '}
                <Link to={projectPath(projectId)} testId="project-breadcrumb">
                  {project.data?.name ?? t('session.breadcrumbProject')}
                </Link>
              </>
            )}
          </nav>
          <h1 data-testid="session-title">
            {session.data ? (session.data.title ?? t('session.untitled')) : t('common.loading')}
          </h1>
          {model?.configured && (
            <span className="chip muted small">
              {t('model.configured', { provider: model.provider, model: model.model })}
            </span>
          )}
        </header>
        <LineStepper stage={lineStage(view)} merged={view.lineEnd?.merged != null} />
        <ConnectionBanner connection={stream.connection} />
        <ModelStatusBanner model={model} />
        {state.error !== null && <ErrorMessage error={state.error} />}
        {view.unreadable > 0 && (
          <p className="banner warning small">
            {t('session.unreadableEvents', { count: view.unreadable })}
          </p>
        )}
        {stream.phase === 'loading' ? (
          <p className="muted" data-testid="session-loading">
            {t('common.loading')}
          </p>
        ) : (
          <>
            <LiveAnnouncer
              watched={{
                needsYou: waiting,
                stage: lineStage(view),
                merged: view.lineEnd?.merged != null,
                lastAnswer: lastAnswerOf(view.chat),
                streaming: stream.live.map((entry) => entry.agent),
              }}
            />
            <NeedsYouPanel sessionId={sessionId} items={waitingItems} />
            <div className="session-layout">
              <ChatPanel sessionId={sessionId} view={view} live={stream.live} versions={versions} />
              <aside className="side-column">
                <RulesPanel rules={view.rules} />
                <BriefCard brief={view.brief} />
                <PendingActionsPanel actions={view.actions} />
                <UsagePanel
                  sessionId={sessionId}
                  projectId={projectId}
                  refreshKey={view.lastSeq}
                  models={state.data?.models}
                />
              </aside>
            </div>
            <LineEndPanel
              sessionId={sessionId}
              refreshKey={view.lastSeq}
              modules={currentDeclaration(view.moduleMaps)?.data.modules ?? []}
            />
            <ProductionPanelLater sessionId={sessionId} view={view} />
          </>
        )}
      </main>
    </CommitProjectContext>
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
