import { useState } from 'react';
import { t } from '../i18n/t.ts';
import {
  currentDeclaration,
  declarationsNewestFirst,
} from '../session/fold/current-declaration.ts';
import type { Declaration, ModuleContracts, ModuleMap } from '../session/fold/session-view.ts';
import { ContractItemsTable } from './ContractItemsTable.tsx';

/**
 * Module contracts by version: the current one (highest version, ties by seq) unless another is picked.
 * What each module uses comes from the current map's `dependsOn`, never from the contract.
 */
export function ContractsPanel({
  contracts,
  maps,
}: {
  contracts: Declaration<ModuleContracts>[];
  maps: Declaration<ModuleMap>[];
}) {
  const [picked, setPicked] = useState<number | null>(null);
  const current = currentDeclaration(contracts);
  if (current === null) return <p className="muted">{t('contracts.empty')}</p>;
  const versions = declarationsNewestFirst(contracts);
  const shown = versions.find((declaration) => declaration.seq === picked) ?? current;
  const map = currentDeclaration(maps);
  const modules = new Map((map?.data.modules ?? []).map((module) => [module.name, module]));
  return (
    <div data-testid="contracts-panel" data-version={shown.version} data-seq={shown.seq}>
      <div className="row">
        <label htmlFor="contracts-version">{t('contracts.version.label')}</label>
        <select
          id="contracts-version"
          data-testid="contracts-version-select"
          value={shown.seq}
          onChange={(event) => setPicked(Number(event.target.value))}
        >
          {versions.map((declaration) => (
            <option key={declaration.seq} value={declaration.seq}>
              {declaration === current
                ? t('contracts.version.current', {
                    version: declaration.version,
                    seq: declaration.seq,
                  })
                : t('contracts.version.option', {
                    version: declaration.version,
                    seq: declaration.seq,
                  })}
            </option>
          ))}
        </select>
      </div>
      {shown !== current && (
        <p className="banner warning small">
          {t('contracts.notCurrent', { version: current.version })}
        </p>
      )}
      <ul className="cards">
        {shown.data.contratos.map((contract) => {
          const module = modules.get(contract.modulo);
          return (
            <li
              key={contract.modulo}
              className="card contract"
              data-testid="contract-module"
              data-module={contract.modulo}
            >
              <h3>
                {contract.modulo}{' '}
                {module === undefined ? (
                  <span className="badge warning">{t('contracts.notInMap')}</span>
                ) : (
                  module.dependsOn.length > 0 && (
                    <span className="muted small">
                      {t('contracts.uses', { modules: module.dependsOn.join(', ') })}
                    </span>
                  )
                )}
              </h3>
              <ContractItemsTable items={contract.expoe} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
