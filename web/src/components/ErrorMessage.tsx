import { ApiError } from '../api/api-error.ts';
import { t } from '../i18n/t.ts';

/** An error a person can read: the server's message, or a hint when the server could not be reached. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError && error.code === 'network')
    return t('common.networkError', { message: error.message });
  return error instanceof Error ? error.message : String(error);
}

export function ErrorMessage({ error, testId }: { error: unknown; testId?: string }) {
  return (
    <p className="error" role="alert" data-testid={testId ?? 'error-message'}>
      {describeError(error)}
    </p>
  );
}
