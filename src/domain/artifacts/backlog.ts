import { z } from 'zod';
import type { ArtifactDefinition } from './artifact-definition.ts';
import { requiredText, textList } from './artifact-text.ts';

/**
 * Backlog artifacts written by the PO. Ids are stable across re-declarations, in the records' style:
 * `EP-030` (epic), `HS-071` (story, "história"), `AT-276` (task, "atividade"); at least three digits.
 */
export const EPIC_ID_PATTERN = /^EP-\d{3,}$/;
export const STORY_ID_PATTERN = /^HS-\d{3,}$/;
export const TASK_ID_PATTERN = /^AT-\d{3,}$/;

function backlogId(pattern: RegExp, example: string): z.ZodString {
  return z
    .string({ error: 'must be a string' })
    .regex(pattern, `must look like ${example} (${pattern.source})`);
}

const acceptanceCriteria = (minItems: number) =>
  textList({ minItems, maxItems: 30, maxCharacters: 500 });

export const EpicSchema = z.strictObject({
  id: backlogId(EPIC_ID_PATTERN, 'EP-030'),
  title: requiredText(160),
  description: requiredText(4000),
  acceptance_criteria: acceptanceCriteria(0).default([]),
  business_rule_refs: z.array(requiredText(64)).max(200, 'must have at most 200 items').default([]),
});

export const StorySchema = z.strictObject({
  id: backlogId(STORY_ID_PATTERN, 'HS-071'),
  epic_id: backlogId(EPIC_ID_PATTERN, 'EP-030'),
  title: requiredText(160),
  description: requiredText(4000),
  acceptance_criteria: acceptanceCriteria(1),
});

export const TaskSchema = z.strictObject({
  id: backlogId(TASK_ID_PATTERN, 'AT-276'),
  story_id: backlogId(STORY_ID_PATTERN, 'HS-071'),
  title: requiredText(160),
  description: requiredText(4000),
  acceptance_criteria: acceptanceCriteria(1),
  /** The module of the module map the task belongs to; absent until the Arquiteto has a map. */
  module: requiredText(80).optional(),
  /** On a part of a split task (the Arquiteto's `split_task`): the task it was split from. */
  split_from: backlogId(TASK_ID_PATTERN, 'AT-276').optional(),
  /** On a task the Arquiteto split: the parts that replace it. A split task is no longer worked on. */
  split_into: z
    .array(backlogId(TASK_ID_PATTERN, 'AT-276'))
    .min(1, 'must have at least 1 item')
    .optional(),
});

/** A task as the PO declares it: what only the Arquiteto's `split_task` writes is not the PO's. */
export const DeclaredTaskSchema = TaskSchema.omit({ split_from: true, split_into: true });

export type Epic = z.infer<typeof EpicSchema>;
export type Story = z.infer<typeof StorySchema>;
export type Task = z.infer<typeof TaskSchema>;

function backlogDefinition(type: string, schema: z.ZodType): ArtifactDefinition {
  return { type, schema, systemOnly: false, versioned: false, originRequired: false };
}

export const epicDefinition = backlogDefinition('epic', EpicSchema);
export const storyDefinition = backlogDefinition('story', StorySchema);
export const taskDefinition = backlogDefinition('task', TaskSchema);
