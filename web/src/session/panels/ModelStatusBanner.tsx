import type { ModelStatus } from '../../api/types.ts';
import { t } from '../../i18n/t.ts';

/** Says plainly when no model is configured: agents cannot answer, and which settings fix it. */
export function ModelStatusBanner({ model }: { model: ModelStatus | undefined }) {
  if (model === undefined || model.configured) return null;
  return (
    <div className="banner error" role="alert" data-testid="model-not-configured">
      <strong>{t('model.notConfigured.title')}</strong>{' '}
      {t('model.notConfigured.body', { message: model.message })}
    </div>
  );
}
