import { hasMessage, t } from './t.ts';

/** How an agent slug is shown: `criativo` → Criativo, `dev:billing` → Dev · billing, unknown slugs as they are. */
export function agentName(slug: string): string {
  if (slug.startsWith('dev:')) return t('agent.dev', { module: slug.slice('dev:'.length) });
  const key = `agent.${slug}`;
  return hasMessage(key) ? t(key) : slug;
}
