import { z } from 'zod';
import {
  type Backlog,
  type Epic,
  EpicSchema,
  type Story,
  StorySchema,
  type Task,
  DeclaredTaskSchema,
  splitNote,
} from '../../domain/artifacts/index.ts';
import type { ModuleMap } from '../../domain/architecture/index.ts';
import { pathText, refusalText, type ArgumentProblem } from '../line/tool-refusal.ts';
import { nextBacklogId } from './continuing-backlog.ts';

/** The arguments of `declare_backlog`, as the model is shown them. */
export const BacklogDeclarationSchema = z.strictObject({
  epics: z
    .array(EpicSchema)
    .optional()
    .describe(
      'Epics {id: "EP-001", title, description, acceptance_criteria?, business_rule_refs?}.',
    ),
  stories: z
    .array(StorySchema)
    .optional()
    .describe('Stories {id: "HS-001", epic_id, title, description, acceptance_criteria (1+)}.'),
  tasks: z
    .array(DeclaredTaskSchema)
    .optional()
    .describe(
      'Tasks {id: "AT-001", story_id, title, description, acceptance_criteria (1+), module? (only once a module map exists)}.',
    ),
});

export interface BacklogDeclaration {
  epics: Epic[];
  stories: Story[];
  tasks: Task[];
}

/** What the declaration is checked against besides itself. */
export interface BacklogContext {
  backlog: Backlog;
  moduleMap: ModuleMap | null;
  /** Event ids of the business rules an epic may cite. */
  businessRuleIds: readonly string[];
  /** Tasks done by an earlier line merged into main: their ids are not declared again (ADR 0416). */
  done?: ReadonlySet<string>;
}

/**
 * Checks a backlog declaration whole: each item's shape (ids `EP-`/`HS-`/`AT-`, acceptance criteria), no
 * id twice, every story under a known epic and every task under a known story (declared now or before),
 * epics citing only this session's business rules, and a task's `module` only once a module map exists and
 * only a module of it. Every problem is reported in one refusal.
 */
export function validateBacklogDeclaration(
  args: unknown,
  context: BacklogContext,
): { ok: true; declaration: BacklogDeclaration } | { ok: false; reason: string } {
  const problems: ArgumentProblem[] = [];
  const envelope = z
    .strictObject({
      epics: z.array(z.unknown()).optional(),
      stories: z.array(z.unknown()).optional(),
      tasks: z.array(z.unknown()).optional(),
    })
    .safeParse(args);
  if (!envelope.success)
    return {
      ok: false,
      reason: refusalText(
        'declare_backlog',
        envelope.error.issues.map((issue) => ({
          path: pathText(issue.path),
          message: issue.message,
        })),
      ),
    };
  // Items keep their index (undefined where the shape failed), so every path names the item the model wrote.
  const parse = <Item>(
    list: string,
    schema: z.ZodType<Item>,
    items: readonly unknown[] = [],
  ): Array<Item | undefined> =>
    items.map((item, index) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) return parsed.data;
      problems.push(
        ...parsed.error.issues.map((issue) => ({
          path: pathText([list, index, ...issue.path]),
          message: issue.message,
        })),
      );
      return undefined;
    });
  const items = {
    epics: parse('epics', EpicSchema, envelope.data.epics),
    stories: parse('stories', StorySchema, envelope.data.stories),
    tasks: parse('tasks', DeclaredTaskSchema, envelope.data.tasks),
  };
  if (items.epics.length + items.stories.length + items.tasks.length === 0)
    problems.push({ path: '(arguments)', message: 'declare at least one epic, story or task' });
  problems.push(
    ...repeatedIds('epics', items.epics),
    ...repeatedIds('stories', items.stories),
    ...repeatedIds('tasks', items.tasks),
  );
  problems.push(...referenceProblems(items, context));
  problems.push(...doneTaskProblems(items.tasks, context));
  const declaration = {
    epics: present(items.epics),
    stories: present(items.stories),
    tasks: present(items.tasks),
  };
  return problems.length > 0
    ? { ok: false, reason: refusalText('declare_backlog', problems) }
    : { ok: true, declaration };
}

type Indexed<Item> = ReadonlyArray<Item | undefined>;

/** A task already done (merged into main by an earlier line) keeps its id: new work takes a new one. */
function doneTaskProblems(tasks: Indexed<Task>, context: BacklogContext): ArgumentProblem[] {
  const done = context.done ?? new Set<string>();
  const taken = context.backlog.tasks.map((task) => task.id);
  return tasks.flatMap((task, index) =>
    task !== undefined && done.has(task.id)
      ? [
          {
            path: `tasks[${index}].id`,
            message: `${task.id} is done (merged into main by an earlier session); declare new work under a new id (${nextBacklogId(taken, 'AT')} is free)`,
          },
        ]
      : [],
  );
}

const present = <Item>(items: Indexed<Item>): Item[] =>
  items.filter((item): item is Item => item !== undefined);

function repeatedIds(list: string, items: Indexed<{ id: string }>): ArgumentProblem[] {
  const seen = new Set<string>();
  return items.flatMap((item, index) => {
    if (item === undefined) return [];
    const repeated = seen.has(item.id);
    seen.add(item.id);
    return repeated
      ? [
          {
            path: `${list}[${index}].id`,
            message: `${item.id} is declared twice in this call; declare each id once`,
          },
        ]
      : [];
  });
}

function referenceProblems(
  declaration: { epics: Indexed<Epic>; stories: Indexed<Story>; tasks: Indexed<Task> },
  context: BacklogContext,
): ArgumentProblem[] {
  const epicIds = new Set(
    [...context.backlog.epics, ...present(declaration.epics)].map((epic) => epic.id),
  );
  const storyIds = new Set(
    [...context.backlog.stories, ...present(declaration.stories)].map((story) => story.id),
  );
  const ruleIds = new Set(context.businessRuleIds);
  const modules = context.moduleMap?.modules.map((module) => module.name) ?? [];
  const problems: ArgumentProblem[] = [];
  declaration.epics.forEach((epic, index) =>
    epic?.business_rule_refs.forEach((ref, position) => {
      if (!ruleIds.has(ref))
        problems.push({
          path: `epics[${index}].business_rule_refs[${position}]`,
          message: `${ref} is not a business rule of this session; valid: ${context.businessRuleIds.join(', ') || '(none recorded)'}`,
        });
    }),
  );
  declaration.stories.forEach((story, index) => {
    if (story !== undefined && !epicIds.has(story.epic_id))
      problems.push({
        path: `stories[${index}].epic_id`,
        message: `epic ${story.epic_id} does not exist; declare it in epics or use one of: ${[...epicIds].join(', ') || '(none yet)'}`,
      });
  });
  declaration.tasks.forEach((task, index) => {
    if (task === undefined) return;
    const split = splitNote(context.backlog, task.id);
    if (split !== null)
      problems.push({
        path: `tasks[${index}].id`,
        message: `${split}; a split task is not declared again — declare its parts instead`,
      });
    if (!storyIds.has(task.story_id))
      problems.push({
        path: `tasks[${index}].story_id`,
        message: `story ${task.story_id} does not exist; declare it in stories or use one of: ${[...storyIds].join(', ') || '(none yet)'}`,
      });
    if (task.module === undefined) return;
    if (context.moduleMap === null)
      problems.push({
        path: `tasks[${index}].module`,
        message:
          'there is no module map yet; leave module out — the Arquiteto assigns tasks to modules once the map exists',
      });
    else if (!modules.includes(task.module))
      problems.push({
        path: `tasks[${index}].module`,
        message: `"${task.module}" is not a module of the current map (version ${context.moduleMap.version}); valid modules: ${modules.join(', ')}`,
      });
  });
  return problems;
}
