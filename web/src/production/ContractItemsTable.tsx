import { t } from '../i18n/t.ts';
import type { ContractItem } from '../session/fold/session-view.ts';

/** What a module exposes: kind, signature, description. */
export function ContractItemsTable({ items }: { items: ContractItem[] }) {
  return (
    <table className="contract-items">
      <thead>
        <tr>
          <th scope="col">{t('contracts.col.tipo')}</th>
          <th scope="col">{t('contracts.col.assinatura')}</th>
          <th scope="col">{t('contracts.col.descricao')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) => (
          <tr key={index} data-testid="contract-item">
            <td>
              <span className={`badge tipo-${item.tipo}`}>{item.tipo}</span>
            </td>
            <td>
              <code>{item.assinatura}</code>
            </td>
            <td className="small">{item.descricao ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
