import { t } from '../i18n/t.ts';
import type { ModuleContract, ModuleDeclaration } from '../session/fold/session-view.ts';
import { ContractItemsTable } from './ContractItemsTable.tsx';

type ModuleDetailsProps = {
  module: ModuleDeclaration;
  usedBy: string[];
  contract: ModuleContract | null;
};

/** The selected module of the map: its stack, responsibility, neighbours and what it exposes now. */
export function ModuleDetails({ module, usedBy, contract }: ModuleDetailsProps) {
  const names = (list: string[]) =>
    list.length === 0 ? t('map.details.nothing') : list.join(', ');
  return (
    <div className="card module-details" data-testid="module-details" data-module={module.name}>
      <h3>{module.name}</h3>
      <dl>
        <dt>{t('map.details.stack')}</dt>
        <dd>{module.stack}</dd>
        <dt>{t('map.details.responsibility')}</dt>
        <dd>{module.responsibility}</dd>
        <dt>{t('map.details.dependsOn')}</dt>
        <dd>{names(module.dependsOn)}</dd>
        <dt>{t('map.details.usedBy')}</dt>
        <dd>{names(usedBy)}</dd>
      </dl>
      {contract && (
        <>
          <h4>{t('map.details.exposes')}</h4>
          <ContractItemsTable items={contract.expoe} />
        </>
      )}
    </div>
  );
}
