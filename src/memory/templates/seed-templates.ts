import type { Database, Queryable } from '../../store/index.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { seedTemplate, TEMPLATE_NAME_PATTERN, type SeedOutcome } from './template-store.ts';

/** Serialises seeders across processes sharing one PostgreSQL (an arbitrary constant). */
const SEED_LOCK_KEY = 7_460_215_302;

export type SeedTemplatesOutcome =
  | { ok: true; results: SeedOutcome[] }
  | { ok: false; reason: string };

/**
 * `forja seed`: writes each template in one transaction under an advisory lock, so two seeders never give
 * one body two versions. A bad name or an empty body refuses the whole seed, naming it.
 */
export async function seedTemplates(
  database: Database,
  graphFor: (transaction: Queryable) => GraphStore,
  templates: ReadonlyArray<{ name: string; body: string }>,
): Promise<SeedTemplatesOutcome> {
  for (const template of templates) {
    if (!TEMPLATE_NAME_PATTERN.test(template.name))
      return {
        ok: false,
        reason: `template name "${template.name}" must match ${TEMPLATE_NAME_PATTERN.source}`,
      };
    if (template.body.trim() === '')
      return { ok: false, reason: `template "${template.name}" has an empty body` };
  }
  const results = await database.transaction(async (transaction) => {
    await transaction.query('select pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const graph = graphFor(transaction);
    const outcomes: SeedOutcome[] = [];
    for (const template of templates)
      outcomes.push(await seedTemplate(graph, template.name, template.body));
    return outcomes;
  });
  return { ok: true, results };
}
