import { useMemo, useState } from 'react';
import { t } from '../i18n/t.ts';
import { currentDeclaration } from '../session/fold/current-declaration.ts';
import type { Declaration, ModuleContracts, ModuleMap } from '../session/fold/session-view.ts';
import { layoutModuleGraph } from './layout-module-graph.ts';
import { ModuleDetails } from './ModuleDetails.tsx';
import { ModuleGraph } from './ModuleGraph.tsx';

/** The current module map as a dependency graph; selecting a module shows its details and current contract. */
export function ModuleMapPanel({
  maps,
  contracts,
}: {
  maps: Declaration<ModuleMap>[];
  contracts: Declaration<ModuleContracts>[];
}) {
  const map = currentDeclaration(maps);
  const layout = useMemo(() => (map ? layoutModuleGraph(map.data.modules) : null), [map]);
  const [selected, setSelected] = useState<string | null>(null);
  if (map === null || layout === null) return <p className="muted">{t('map.empty')}</p>;
  const module = map.data.modules.find((entry) => entry.name === selected) ?? null;
  const currentContracts = currentDeclaration(contracts);
  return (
    <div data-testid="module-map-panel" data-version={map.version}>
      <p className="muted small">
        {t('map.version', { version: map.version })} · {t('map.legend')}
      </p>
      <ModuleGraph layout={layout} selected={module?.name ?? null} onSelect={setSelected} />
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
