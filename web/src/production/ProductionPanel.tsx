import { useState } from 'react';
import { Tabs, type TabEntry } from '../components/Tabs.tsx';
import { t } from '../i18n/t.ts';
import type { SessionView } from '../session/fold/session-view.ts';
import { BacklogPanel } from './BacklogPanel.tsx';
import { ContractsPanel } from './ContractsPanel.tsx';
import { DevelopersPanel } from './DevelopersPanel.tsx';
import { ModuleMapPanel } from './ModuleMapPanel.tsx';
import { OtherArtifactsPanel } from './OtherArtifactsPanel.tsx';

type Tab = 'backlog' | 'map' | 'contracts' | 'devs' | 'other';

/** What the production line made after the brief: backlog, module map, contracts, developers, other artifacts. */
export function ProductionPanel({ sessionId, view }: { sessionId: string; view: SessionView }) {
  const [tab, setTab] = useState<Tab>('backlog');
  const otherCount = Object.values(view.otherArtifacts).length;
  const tabs: Array<TabEntry<Tab>> = [
    {
      id: 'backlog',
      label: t('production.tab.backlog', {
        count: view.backlog.epics.length + view.backlog.stories.length + view.backlog.tasks.length,
      }),
    },
    { id: 'map', label: t('production.tab.map') },
    { id: 'contracts', label: t('production.tab.contracts') },
    { id: 'devs', label: t('production.tab.devs', { count: view.devs.length }) },
    { id: 'other', label: t('production.tab.other', { count: otherCount }) },
  ];
  return (
    <section className="panel production" data-testid="production-panel">
      <h2>{t('production.title')}</h2>
      <Tabs
        idPrefix="production"
        label={t('production.title')}
        tabs={tabs}
        selected={tab}
        onSelect={setTab}
      >
        {tab === 'backlog' && <BacklogPanel backlog={view.backlog} />}
        {tab === 'map' && <ModuleMapPanel sessionId={sessionId} view={view} />}
        {tab === 'contracts' && (
          <ContractsPanel contracts={view.contracts} maps={view.moduleMaps} />
        )}
        {tab === 'devs' && <DevelopersPanel view={view} />}
        {tab === 'other' && <OtherArtifactsPanel artifacts={view.otherArtifacts} />}
      </Tabs>
    </section>
  );
}
