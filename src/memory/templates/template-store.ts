import type { GraphStore } from '../graph/graph-store.ts';
import { LABELS } from '../projection/graph-vocabulary.ts';

/** One version of a prompt template. The current template of a name is its highest version. */
export interface PromptTemplate {
  readonly name: string;
  readonly version: number;
  readonly body: string;
}

export type SeedOutcome =
  | { readonly outcome: 'created'; readonly name: string; readonly version: 1 }
  | { readonly outcome: 'new_version'; readonly name: string; readonly version: number }
  | { readonly outcome: 'unchanged'; readonly name: string; readonly version: number };

/** Template names are wire names: lowercase words joined by dashes (`psicologo-kickoff`). */
export const TEMPLATE_NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

const templateRef = (name: string, version: number) => ({
  label: LABELS.promptTemplate,
  key: `${name}@${version}`,
});

/** The current (highest) version of a template, or null when it was never seeded. */
export async function readCurrentTemplate(
  graph: GraphStore,
  name: string,
): Promise<PromptTemplate | null> {
  const versions = await graph.findNodes(LABELS.promptTemplate, { name });
  let current: PromptTemplate | null = null;
  for (const node of versions) {
    const version = Number(node.properties.version);
    const body = node.properties.body;
    if (
      Number.isInteger(version) &&
      typeof body === 'string' &&
      (current === null || version > current.version)
    )
      current = { name, version, body };
  }
  return current;
}

/**
 * Writes a template idempotently: the same body as the current version changes nothing; a new body becomes
 * the next version (older versions stay, so what an agent read earlier can still be found). The caller
 * serialises seeders (see `seedTemplates`).
 */
export async function seedTemplate(
  graph: GraphStore,
  name: string,
  body: string,
): Promise<SeedOutcome> {
  const current = await readCurrentTemplate(graph, name);
  if (current !== null && current.body === body)
    return { outcome: 'unchanged', name, version: current.version };
  const version = (current?.version ?? 0) + 1;
  await graph.upsertNode({ ...templateRef(name, version), properties: { name, version, body } });
  return current === null
    ? { outcome: 'created', name, version: 1 }
    : { outcome: 'new_version', name, version };
}
