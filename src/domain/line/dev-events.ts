import { z } from 'zod';

/**
 * Events of the dev agents' progress, named here because the records leave them open:
 * - `dev.blocked` — `report_blocked`: the dev needs an interface the contracts do not declare.
 * - `dev.task_finished` — `finish_task`: the dev's work on a task is committed on its branch.
 */
export const DEV_EVENT_TYPES = {
  blocked: 'dev.blocked',
  taskFinished: 'dev.task_finished',
} as const;

/**
 * What a dev is blocked on, which says what resolves it: `interface` (a missing interface: a new contracts
 * version), `check` (the module's check is broken by the map: a new module map version), `task` (a task that
 * belongs elsewhere or a wrong module boundary: a new module map version), `other` (either version). The
 * Arquiteto's `answer_block` resolves any of them.
 */
export const BLOCK_KINDS = ['interface', 'check', 'task', 'other'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/**
 * `dev.blocked`: `modulo` is the module the block is about (whose interface is missing, whose check is
 * broken), `falta` what is missing or wrong (the record's names). No `kind`: a block recorded before kinds,
 * an `interface`.
 */
export const DevBlockedPayloadSchema = z.object({
  v: z.literal(1),
  agent: z.string().min(1),
  module: z.string().min(1),
  modulo: z.string().min(1),
  falta: z.string().min(1),
  kind: z.enum(BLOCK_KINDS).optional(),
});

/** `dev.task_finished`: the commit that holds the task's work on the module's branch. */
export const DevTaskFinishedPayloadSchema = z.object({
  v: z.literal(1),
  agent: z.string().min(1),
  module: z.string().min(1),
  task_id: z.string().min(1),
  summary: z.string(),
  branch: z.string().min(1),
  commit: z.string().min(1),
  files: z.array(z.string()),
  /** The task's work was already in `commit`, made when an earlier task of the module finished (ADR 0341). */
  already_committed: z.literal(true).optional(),
  /** The check that passed before the commit (absent in events before ADR 0110; null when there was none). */
  check: z
    .object({
      command: z.string(),
      source: z.enum(['declared', 'default']),
      exit_code: z.number().int(),
      duration_ms: z.number().int().nonnegative(),
      /** Tests the passing check's output said it skipped (absent when none). */
      skipped: z.number().int().positive().optional(),
    })
    .nullable()
    .optional(),
});

export type DevBlockedPayload = z.infer<typeof DevBlockedPayloadSchema>;
export type DevTaskFinishedPayload = z.infer<typeof DevTaskFinishedPayloadSchema>;
