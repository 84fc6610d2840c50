import { z } from 'zod';
import { versionedArtifact } from './artifact-definition.ts';
import { MAX_MODULES } from './module-map-schema.ts';
import { repeatedNames } from './module-membership.ts';
import {
  addRuleProblem,
  arrayRule,
  optionalText,
  requiredText,
  strictObject,
  versionSchema,
} from './schema-helpers.ts';

export const MAX_INFRA_CHARACTERS = 200;
export const MAX_ROUTE_NOTES_CHARACTERS = 500;

/** Where one module of the map runs (a service, a worker, a static site, a database …). */
export const moduleRouteSchema = strictObject({
  module: requiredText({
    field: 'module',
    maxCharacters: 200,
    emptyCode: 'empty_text',
    tooLongCode: 'text_too_long',
  }),
  infra: requiredText({
    field: 'infra',
    maxCharacters: MAX_INFRA_CHARACTERS,
    emptyCode: 'empty_text',
    tooLongCode: 'text_too_long',
  }),
  notes: optionalText({
    field: 'notes',
    maxCharacters: MAX_ROUTE_NOTES_CHARACTERS,
    tooLongCode: 'text_too_long',
  }),
});

/**
 * `artifact.module_routing`, what `route_modules_to_infra` records: versioned like the other Arquiteto
 * artifacts, the whole routing in each declaration. Not every module must be routed (a library module runs
 * inside its consumers); a module is routed at most once.
 */
export const moduleRoutingSchema = strictObject({
  version: versionSchema,
  routes: z
    .array(moduleRouteSchema)
    .check(
      arrayRule((routes, context) => {
        if (routes.length === 0)
          addRuleProblem(
            context,
            'invalid_value',
            'routes is empty; route at least one module of the map',
          );
        if (routes.length > MAX_MODULES)
          addRuleProblem(
            context,
            'too_many_entries',
            `${routes.length} routes; the limit is ${MAX_MODULES}`,
          );
        for (const problem of repeatedNames(routes, 'module', 'routes', 'route each module once')) {
          addRuleProblem(context, problem.code, problem.message, [...problem.path]);
        }
      }),
    )
    .meta({ minItems: 1, maxItems: MAX_MODULES }),
});

export type ModuleRoute = z.output<typeof moduleRouteSchema>;
export type ModuleRouting = z.output<typeof moduleRoutingSchema>;

export const moduleRoutingArtifact = versionedArtifact('module_routing', moduleRoutingSchema);
