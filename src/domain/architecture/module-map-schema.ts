import { z } from 'zod';
import { versionedArtifact } from './artifact-definition.ts';
import { moduleGraphProblems } from './module-graph.ts';
import {
  addRuleProblem,
  arrayRule,
  characterCount,
  requiredText,
  strictObject,
  versionSchema,
} from './schema-helpers.ts';

/**
 * Module names become worktree directories and branch names of the dev agents, so they are restricted to
 * lowercase letters, digits and single `-`/`_` separators (the records' names: `board-engine`,
 * `piece-catalog`). A name like `../x` can then never reach a path or a git ref.
 */
export const MODULE_NAME_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
export const MAX_MODULE_NAME_CHARACTERS = 64;
/** Bounds that keep the map readable in every agent's context; the records give none. */
export const MAX_MODULES = 100;
export const MAX_STACK_CHARACTERS = 200;
export const MAX_RESPONSIBILITY_CHARACTERS = 1000;

export const MAX_MODULE_DIRECTORY_CHARACTERS = 200;
export const MAX_CHECK_CHARACTERS = 1000;
const MODULE_DIRECTORY_PATTERN = /^[A-Za-z0-9_@.-]+(?:\/[A-Za-z0-9_@.-]+)*$/;

/**
 * Where a module lives in the repository, relative to its root (`packages/pedidos`): its dev agent reads
 * the instruction files on the path from the root to there. POSIX separators, no `.`/`..` segment.
 */
export const moduleDirectorySchema = z
  .string()
  .check(
    z.superRefine<string>((directory, context) => {
      const segments = directory.split('/');
      const valid =
        MODULE_DIRECTORY_PATTERN.test(directory) &&
        !segments.some((segment) => segment === '.' || segment === '..');
      if (!valid || directory.length > MAX_MODULE_DIRECTORY_CHARACTERS) {
        addRuleProblem(
          context,
          'invalid_value',
          `directory "${directory}" is not valid: a path relative to the repository root, like packages/pedidos (letters, digits, "_", "-", "." and "@", segments joined by "/", no "." or ".." segment), at most ${MAX_MODULE_DIRECTORY_CHARACTERS} characters`,
        );
      }
    }),
  )
  .meta({ maxLength: MAX_MODULE_DIRECTORY_CHARACTERS });

/** A module name as the map declares it. */
export const moduleNameSchema = z
  .string()
  .check(
    z.superRefine<string>((name, context) => {
      if (!MODULE_NAME_PATTERN.test(name) || characterCount(name) > MAX_MODULE_NAME_CHARACTERS) {
        addRuleProblem(
          context,
          'invalid_module_name',
          `module name "${name}" is not valid: use lowercase letters, digits and single "-" or "_" between them (e.g. board-engine), at most ${MAX_MODULE_NAME_CHARACTERS} characters`,
        );
      }
    }),
  )
  .meta({ pattern: MODULE_NAME_PATTERN.source, maxLength: MAX_MODULE_NAME_CHARACTERS });

/** One module: `{name, stack, responsibility, dependsOn[]}` (record ADR 0200, "module_map … это {name, stack, responsibility, dependsOn[]}"). */
export const moduleSchema = strictObject({
  name: moduleNameSchema,
  stack: requiredText({
    field: 'stack',
    maxCharacters: MAX_STACK_CHARACTERS,
    emptyCode: 'empty_text',
    tooLongCode: 'text_too_long',
  }),
  responsibility: requiredText({
    field: 'responsibility',
    maxCharacters: MAX_RESPONSIBILITY_CHARACTERS,
    emptyCode: 'empty_text',
    tooLongCode: 'text_too_long',
  }),
  /** Names of the modules this one uses. Optional on input (a model often omits an empty list). */
  dependsOn: z.array(z.string()).default([]),
  /** Optional: the module's directory in the repository; without it its dev reads only the root's instructions. */
  directory: moduleDirectorySchema.optional(),
  /**
   * Optional: the shell command that checks the module (`node --test`, `npx tsc --noEmit`, `pytest -q`), run by
   * `finish_task` in the dev's sandbox before it commits; without it Forja uses a default for known stacks.
   */
  check: z
    .string()
    .trim()
    .min(1, 'check must not be empty')
    .max(MAX_CHECK_CHARACTERS, `check must be at most ${MAX_CHECK_CHARACTERS} characters`)
    .optional(),
});

/**
 * `artifact.module_map`, versioned by `version` like every Arquiteto artifact. The schema itself enforces the
 * graph rules (unique names, known dependencies, acyclic), so no path into the log can store a broken map.
 */
export const moduleMapSchema = strictObject({
  version: versionSchema,
  modules: z
    .array(moduleSchema)
    .check(
      arrayRule((modules, context) => {
        if (modules.length === 0)
          addRuleProblem(context, 'invalid_value', 'declare at least one module');
        if (modules.length > MAX_MODULES) {
          addRuleProblem(
            context,
            'too_many_entries',
            `${modules.length} modules; the limit is ${MAX_MODULES}`,
          );
        }
        for (const problem of moduleGraphProblems(modules)) {
          addRuleProblem(context, problem.code, problem.message, [...problem.path]);
        }
      }),
    )
    .meta({ minItems: 1, maxItems: MAX_MODULES }),
});

export type ModuleMap = z.output<typeof moduleMapSchema>;
export type ModuleDeclaration = z.output<typeof moduleSchema>;

export const moduleMapArtifact = versionedArtifact('module_map', moduleMapSchema);
