import { z } from 'zod';

/**
 * The end of the line's events (ADR 0110): `module.merged {module, commit, checks}` — the module's branch
 * merged into `dev` and the integration check passed; `module.merge_failed {module, kind, paths | output}` — a
 * conflict or a failing integration check re-opened the module's work; `line.completed {commit}` — every
 * module with tasks merged; `line.merged_into_main {commit, dev_commit}` — the person merged that `dev` into
 * `main` (`commit` is the merge commit on main).
 */
export const LINE_EVENT_TYPES = {
  merged: 'module.merged',
  mergeFailed: 'module.merge_failed',
  completed: 'line.completed',
  mergedIntoMain: 'line.merged_into_main',
  instructionsAccepted: 'line.instructions_accepted',
  dependencyMerged: 'module.dependency_merged',
  caughtUp: 'module.caught_up',
} as const;

/** Most instruction files one merge into main may add or change: the person reviews each (ADR 0302). */
export const MAX_MERGED_INSTRUCTION_FILES = 100;

/** An instruction file a dev wrote, as it reached main: its path and the SHA-256 of its text (ADR 0302). */
export const InstructionFileDigestSchema = z.object({
  path: z.string().min(1).max(4096),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type InstructionFileDigest = z.infer<typeof InstructionFileDigestSchema>;

/**
 * `line.merged_into_main`: the merge commit on `main`, the `dev` commit it merged (line.completed's), who, and
 * the instruction files the line's devs added or changed: they govern no agent until the person accepts them
 * (`line.instructions_accepted`, ADR 0302). Absent in a log written before them.
 */
export const LineMergedIntoMainPayloadSchema = z.object({
  v: z.literal(1),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  dev_commit: z.string().regex(/^[0-9a-f]{40}$/),
  actor: z.string().min(1),
  instruction_files: z
    .array(InstructionFileDigestSchema)
    .max(MAX_MERGED_INSTRUCTION_FILES)
    .optional(),
});

/** `line.instructions_accepted`: the person accepted these dev-written instruction files of that merge. */
export const LineInstructionsAcceptedPayloadSchema = z.object({
  v: z.literal(1),
  merge_commit: z.string().regex(/^[0-9a-f]{40}$/),
  instruction_files: z.array(InstructionFileDigestSchema).min(1).max(MAX_MERGED_INSTRUCTION_FILES),
  actor: z.string().min(1),
});
export type LineMergedIntoMainPayload = z.infer<typeof LineMergedIntoMainPayloadSchema>;

/** `module.merged`: the module's merge commit on `dev` and the integration checks that passed on it. */
export const ModuleMergedPayloadSchema = z.object({
  v: z.literal(1),
  module: z.string().min(1),
  commit: z.string().min(1),
  checks: z.array(
    z.object({
      module: z.string().min(1),
      command: z.string(),
      exit_code: z.number().int(),
      duration_ms: z.number().int().nonnegative(),
      /** A default check that ran nothing (its stack's marker file is missing): not a pass. */
      skipped: z.literal(true).optional(),
    }),
  ),
});

/** `module.merge_failed`: a conflict (with its paths) or a failing integration check (with its output). */
export const ModuleMergeFailedPayloadSchema = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(1),
    module: z.string().min(1),
    kind: z.literal('conflict'),
    paths: z.array(z.string()),
  }),
  z.object({
    v: z.literal(1),
    module: z.string().min(1),
    kind: z.literal('check'),
    output: z.string(),
  }),
]);

/** `line.completed`: `dev`'s commit once every module with tasks is merged, and those modules. */
export const LineCompletedPayloadSchema = z.object({
  v: z.literal(1),
  commit: z.string().min(1),
  modules: z.array(z.string().min(1)),
});

/**
 * `module.dependency_merged`: once its `dependencies` were merged into `dev`, `dev` was merged into `module`'s branch
 * in its worktree (`commit`), or could not be (`reason`, the conflicting paths): the dev is told (ADR 0343).
 */
export const ModuleDependencyMergedPayloadSchema = z.object({
  v: z.literal(1),
  module: z.string().min(1),
  dependencies: z.array(z.string().min(1)).min(1),
  commit: z.string().min(1).optional(),
  reason: z.string().max(2000).optional(),
  conflicts: z.array(z.string()).max(200).optional(),
});
export type ModuleDependencyMergedPayload = z.infer<typeof ModuleDependencyMergedPayloadSchema>;

/**
 * `module.caught_up`: before the dev's first turn of a session, the worktree an earlier session's line left
 * got `dev` — which had taken `main` — merged into `module`'s branch (`commit`), or could not (`reason`, the
 * conflicting paths): the dev is told which (ADR 0416).
 */
export const ModuleCaughtUpPayloadSchema = z.object({
  v: z.literal(1),
  module: z.string().min(1),
  commit: z.string().min(1).optional(),
  reason: z.string().max(2000).optional(),
  conflicts: z.array(z.string()).max(200).optional(),
});
export type ModuleCaughtUpPayload = z.infer<typeof ModuleCaughtUpPayloadSchema>;
