import type { PromptTemplate } from './template-store.ts';

/** Which text an agent used, and why: the graph template, or its inline text (flag off, none seeded, graph failing). */
export type ResolvedTemplate =
  | { readonly text: string; readonly source: 'graph'; readonly version: number }
  | {
      readonly text: string;
      readonly source: 'inline';
      readonly reason: 'flag_off' | 'not_seeded' | 'graph_failed';
      readonly detail?: string;
    };

/**
 * Tries the template first and falls back to the agent's inline text (record ADR 0101). The graph is additive:
 * when it fails the agent works exactly as it did without it, and the reason is returned, not thrown.
 */
export async function resolveTemplate(options: {
  enabled: boolean;
  name: string;
  inline: string;
  read: (name: string) => Promise<PromptTemplate | null>;
}): Promise<ResolvedTemplate> {
  if (!options.enabled) return { text: options.inline, source: 'inline', reason: 'flag_off' };
  try {
    const template = await options.read(options.name);
    if (template === null) return { text: options.inline, source: 'inline', reason: 'not_seeded' };
    return { text: template.body, source: 'graph', version: template.version };
  } catch (error) {
    return {
      text: options.inline,
      source: 'inline',
      reason: 'graph_failed',
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
