import { z } from 'zod';
import type { ModuleMap } from '../../domain/architecture/index.ts';
import {
  type Backlog,
  requiredText,
  splitNote,
  type Task,
  TASK_ID_PATTERN,
  textList,
} from '../../domain/artifacts/index.ts';
import type { ArgumentProblem } from '../line/tool-refusal.ts';

/** Most parts one task is split into. */
export const MAX_SPLIT_PARTS = 10;

/** The arguments of `split_task`, as the model is shown them. */
export const SplitTaskSchema = z.strictObject({
  task_id: z
    .string()
    .trim()
    .regex(TASK_ID_PATTERN, 'must be a task id like AT-276')
    .describe('The backlog task to split (it is replaced by its parts).'),
  parts: z
    .array(
      z.strictObject({
        module: z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .describe('A module of the current map: its dev gets this part.'),
        title: requiredText(160),
        description: requiredText(4000).describe(
          'What this part does, whole: its dev reads this part, not the task it came from.',
        ),
        acceptance_criteria: textList({ minItems: 1, maxItems: 30, maxCharacters: 500 })
          .optional()
          .describe("This part's criteria; the task's own when left out."),
      }),
    )
    .min(1, 'give at least 1 part')
    .max(MAX_SPLIT_PARTS, `must have at most ${MAX_SPLIT_PARTS} parts`),
});
export type SplitTaskArguments = z.infer<typeof SplitTaskSchema>;

/** What a split is checked against besides its arguments. */
export interface SplitContext {
  backlog: Backlog;
  moduleMap: ModuleMap | null;
  /** Tasks whose finish stands, by id: the commit and branch they were finished on. */
  finished: ReadonlyMap<string, { commit: string; branch: string }>;
  /** Modules already merged into `dev`: their tasks are closed. */
  merged: ReadonlySet<string>;
}

/** The split as it will be recorded: the task with `split_into`, and its parts with new ids and `split_from`. */
export interface SplitPlan {
  original: Task;
  parts: Task[];
}

/**
 * The split rule (pure): `task_id` must be a task of the backlog that is neither split nor finished, each
 * part's module a module of the current map not yet merged into `dev`, and no part repeated (same module
 * and title). The parts take the next free task ids, in order, the task's story and, unless given, its
 * acceptance criteria. Every problem is reported at once, at the path the model wrote.
 */
export function planTaskSplit(
  args: SplitTaskArguments,
  context: SplitContext,
): { ok: true; plan: SplitPlan } | { ok: false; problems: ArgumentProblem[] } {
  const problems: ArgumentProblem[] = [];
  const map = context.moduleMap;
  if (map === null)
    problems.push({
      path: '(arguments)',
      message: 'this project has no module map yet; declare it with declare_module_map first',
    });
  const task = context.backlog.tasks.find((candidate) => candidate.id === args.task_id);
  const split = splitNote(context.backlog, args.task_id);
  if (split !== null) problems.push({ path: 'task_id', message: `${split}; a task is split once` });
  else if (task === undefined)
    problems.push({
      path: 'task_id',
      message: `${args.task_id} is not a task of the backlog; tasks: ${context.backlog.tasks.map((candidate) => candidate.id).join(', ') || '(none)'}`,
    });
  const finish = context.finished.get(args.task_id);
  if (task !== undefined && finish !== undefined)
    problems.push({
      path: 'task_id',
      message: `${args.task_id} is finished (committed ${finish.commit.slice(0, 12)} on ${finish.branch}); a finished task is not split`,
    });
  problems.push(...partProblems(args.parts, map, context.merged));
  if (problems.length > 0 || task === undefined) return { ok: false, problems };
  const ids = nextTaskIds(context.backlog, args.parts.length);
  return {
    ok: true,
    plan: {
      original: { ...task, split_into: ids },
      parts: args.parts.map((part, index) => ({
        id: ids[index]!,
        story_id: task.story_id,
        title: part.title,
        description: part.description,
        acceptance_criteria: part.acceptance_criteria ?? task.acceptance_criteria,
        module: part.module,
        split_from: task.id,
      })),
    },
  };
}

function partProblems(
  parts: SplitTaskArguments['parts'],
  map: ModuleMap | null,
  merged: ReadonlySet<string>,
): ArgumentProblem[] {
  const modules = map?.modules.map((module) => module.name) ?? [];
  const seen = new Map<string, number>();
  return parts.flatMap((part, index) => {
    const problems: ArgumentProblem[] = [];
    if (map !== null && !modules.includes(part.module))
      problems.push({
        path: `parts[${index}].module`,
        message: `"${part.module}" is not in the current module map (version ${map.version}); valid modules: ${modules.join(', ')}`,
      });
    else if (merged.has(part.module))
      problems.push({
        path: `parts[${index}].module`,
        message: `${part.module} is already merged into dev; a merged module takes no new task`,
      });
    const key = `${part.module}\u0000${part.title}`;
    if (seen.has(key))
      problems.push({
        path: `parts[${index}]`,
        message: `repeats parts[${seen.get(key)}] (same module and title); give each part once`,
      });
    else seen.set(key, index);
    return problems;
  });
}

/** The next `count` task ids after the highest of the backlog (split tasks included): AT-013, AT-014, … */
export function nextTaskIds(backlog: Backlog, count: number): string[] {
  const highest = Math.max(
    0,
    ...[...backlog.tasks, ...backlog.split].map((task) => Number(task.id.slice('AT-'.length))),
  );
  return Array.from(
    { length: count },
    (_, index) => `AT-${String(highest + index + 1).padStart(3, '0')}`,
  );
}
