import { z } from 'zod';
import { versionedArtifact } from './artifact-definition.ts';
import { MODULE_NAME_PATTERN } from './module-map-schema.ts';
import { nameAt } from './module-membership.ts';
import {
  addRuleProblem,
  arrayRule,
  optionalText,
  requiredText,
  strictObject,
  versionSchema,
} from './schema-helpers.ts';

/** The endpoint name that stands for the software system as a whole in a relation. */
export const C4_SYSTEM_ENDPOINT = 'system';
export const C4_ACTOR_KINDS = ['person', 'external_system'] as const;
export const MAX_C4_ACTORS = 30;
export const MAX_C4_RELATIONS = 120;

const text = (field: string, maxCharacters: number) =>
  requiredText({ field, maxCharacters, emptyCode: 'empty_text', tooLongCode: 'text_too_long' });

/** A person or an external system around the software system (the C4 context level). */
export const c4ActorSchema = strictObject({
  id: z
    .string()
    .regex(MODULE_NAME_PATTERN, {
      error:
        'id must be lowercase letters, digits and single "-" or "_" (e.g. player, payment-gateway)',
    })
    .max(64, { error: 'id is longer than 64 characters' }),
  kind: z.enum(C4_ACTOR_KINDS, {
    error: (issue) =>
      issue.code === 'invalid_value'
        ? `unknown kind ${JSON.stringify(issue.input)}; valid: ${C4_ACTOR_KINDS.join(', ')}`
        : undefined,
  }),
  name: text('name', 100),
  description: optionalText({
    field: 'description',
    maxCharacters: 500,
    tooLongCode: 'text_too_long',
  }),
});

/** "from uses to": endpoints are actor ids, module names of the current map, or `system`. */
export const c4RelationSchema = strictObject({
  from: text('from', 64),
  to: text('to', 64),
  description: text('description', 300),
});

/**
 * `artifact.c4_diagram`: the context level (system, people, external systems) and how they meet the
 * system or its modules. The container level is NOT written here: it is the module map itself (modules as
 * containers, `dependsOn` as relations, as record ADR 0200 restates an earlier record's rule), so relations between two
 * modules are refused and derived by `deriveC4ContainerView` instead.
 */
export const c4DiagramSchema = strictObject({
  version: versionSchema,
  system: strictObject({ name: text('name', 100), description: text('description', 1000) }),
  actors: z
    .array(c4ActorSchema)
    .default([])
    .check(
      arrayRule((actors, context) => {
        if (actors.length > MAX_C4_ACTORS)
          addRuleProblem(
            context,
            'too_many_entries',
            `${actors.length} actors; the limit is ${MAX_C4_ACTORS}`,
          );
        const firstIndexById = new Map<string, number>();
        actors.forEach((actor, index) => {
          const id = nameAt(actor, 'id');
          if (id === undefined) return;
          if (id === C4_SYSTEM_ENDPOINT) {
            addRuleProblem(
              context,
              'repeated_id',
              `id "${C4_SYSTEM_ENDPOINT}" is reserved for the system itself`,
              [index, 'id'],
            );
          }
          const firstIndex = firstIndexById.get(id);
          if (firstIndex === undefined) firstIndexById.set(id, index);
          else
            addRuleProblem(
              context,
              'repeated_id',
              `id "${id}" is used more than once (first at actors[${firstIndex}])`,
              [index, 'id'],
            );
        });
      }),
    ),
  relations: z
    .array(c4RelationSchema)
    .default([])
    .check(
      arrayRule((relations, context) => {
        if (relations.length > MAX_C4_RELATIONS) {
          addRuleProblem(
            context,
            'too_many_entries',
            `${relations.length} relations; the limit is ${MAX_C4_RELATIONS}`,
          );
        }
        relations.forEach((relation, index) => {
          const from = nameAt(relation, 'from');
          if (from !== undefined && from === nameAt(relation, 'to')) {
            addRuleProblem(context, 'invalid_value', `relation from "${from}" to itself`, [
              index,
              'to',
            ]);
          }
        });
      }),
    ),
});

export type C4Actor = z.output<typeof c4ActorSchema>;
export type C4Relation = z.output<typeof c4RelationSchema>;
export type C4Diagram = z.output<typeof c4DiagramSchema>;

export const c4DiagramArtifact = versionedArtifact('c4_diagram', c4DiagramSchema);
