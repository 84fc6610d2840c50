import { useMemo, useState } from 'react';
import { t } from '../i18n/t.ts';
import { currentDeclaration } from '../session/fold/current-declaration.ts';
import type { SessionView } from '../session/fold/session-view.ts';
import { layoutModuleGraph } from './layout-module-graph.ts';
import { ModuleDetails } from './ModuleDetails.tsx';
import { ModuleGraph } from './ModuleGraph.tsx';
import { moduleStatus } from './module-status.ts';
import { useSessionLine } from './use-session-line.ts';

/** The current module map as a dependency graph; selecting a module shows its details and current contract. */
export function ModuleMapPanel({ sessionId, view }: { sessionId: string; view: SessionView }) {
  const { moduleMaps: maps, contracts } = view;
  const map = currentDeclaration(maps);
  const layout = useMemo(() => (map ? layoutModuleGraph(map.data.modules) : null), [map]);
  const [selected, setSelected] = useState<string | null>(null);
  const line = useSessionLine(sessionId, view.lastSeq);
  if (map === null || layout === null) return <p className="muted">{t('map.empty')}</p>;
  const statuses = Object.fromEntries(
    map.data.modules.map((entry) => {
      const agent = `dev:${entry.name}`;
      return [
        entry.name,
        moduleStatus({
          lineState:
            line?.modules.find((candidate) => candidate.module === entry.name)?.state ?? null,
          dev: view.devs.find((dev) => dev.agent === agent),
          checking: view.checking.includes(agent),
          openBlocks: view.blocks.filter(
            (block) => block.module === entry.name && block.status !== 'unblocked',
          ).length,
        }),
      ];
    }),
  );
  const module = map.data.modules.find((entry) => entry.name === selected) ?? null;
  const currentContracts = currentDeclaration(contracts);
  return (
    <div data-testid="module-map-panel" data-version={map.version}>
      <p className="muted small">
        {t('map.version', { version: map.version })} · {t('map.legend')}
      </p>
      <ModuleGraph
        layout={layout}
        statuses={statuses}
        selected={module?.name ?? null}
        onSelect={setSelected}
      />
      {layout.unknownDependencies.map((problem) => (
        <p key={`${problem.module}->${problem.dependency}`} className="error small">
          {t('map.unknownDependency', problem)}
        </p>
      ))}
      {module && (
        <ModuleDetails
          module={module}
          usedBy={map.data.modules
            .filter((entry) => entry.dependsOn.includes(module.name))
            .map((entry) => entry.name)}
          contract={
            currentContracts?.data.contratos.find((contract) => contract.modulo === module.name) ??
            null
          }
        />
      )}
    </div>
  );
}
