import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EPIC_ID_PATTERN,
  EpicSchema,
  STORY_ID_PATTERN,
  StorySchema,
  TASK_ID_PATTERN,
  TaskSchema,
} from './backlog.ts';
import { ProductBriefSchema } from './product-brief.ts';
import { artifactEventType, artifactTypeOf } from './artifact-payload.ts';

describe('backlog ids', () => {
  it.each([
    [EPIC_ID_PATTERN, 'EP-030', true],
    [EPIC_ID_PATTERN, 'EP-1234', true],
    [EPIC_ID_PATTERN, 'EP-30', false],
    [EPIC_ID_PATTERN, 'ep-030', false],
    [STORY_ID_PATTERN, 'HS-071', true],
    [STORY_ID_PATTERN, 'EP-071', false],
    [TASK_ID_PATTERN, 'AT-276', true],
    [TASK_ID_PATTERN, 'AT-276 ', false],
  ])('%s tests %j as %s', (pattern, id, expected) => {
    expect(pattern.test(id)).toBe(expected);
  });

  it('refuses a story pointing to a task id as its epic, naming the field and the expected shape', () => {
    const parsed = StorySchema.safeParse({
      id: 'HS-071',
      epic_id: 'AT-276',
      title: 't',
      description: 'd',
      acceptance_criteria: ['a'],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['epic_id'],
      message: expect.stringContaining('must look like EP-030'),
    });
  });

  it('requires at least one acceptance criterion on stories and tasks, none on epics', () => {
    const base = { title: 't', description: 'd', acceptance_criteria: [] };
    expect(StorySchema.safeParse({ ...base, id: 'HS-001', epic_id: 'EP-001' }).success).toBe(false);
    expect(TaskSchema.safeParse({ ...base, id: 'AT-001', story_id: 'HS-001' }).success).toBe(false);
    expect(EpicSchema.safeParse({ ...base, id: 'EP-001' }).success).toBe(true);
  });

  it('keeps the task module optional', () => {
    const task = {
      id: 'AT-001',
      story_id: 'HS-001',
      title: 't',
      description: 'd',
      acceptance_criteria: ['a'],
    };
    expect(TaskSchema.parse(task)).not.toHaveProperty('module');
    expect(TaskSchema.parse({ ...task, module: 'billing' }).module).toBe('billing');
  });
});

describe('product brief', () => {
  it('fills empty lists for refs, out of scope and open questions', () => {
    const brief = ProductBriefSchema.parse({
      title: 't',
      summary: 's',
      problem: 'p',
      audience: 'a',
      goals: ['g'],
    });
    expect(brief).toMatchObject({ business_rule_refs: [], out_of_scope: [], open_questions: [] });
  });

  it('requires at least one goal', () => {
    const parsed = ProductBriefSchema.safeParse({
      title: 't',
      summary: 's',
      problem: 'p',
      audience: 'a',
      goals: [],
    });
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['goals'],
      message: 'must have at least 1 item',
    });
  });
});

describe('artifact event types', () => {
  it('round-trips any artifact type through its event type', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/), (type) => {
        expect(artifactTypeOf(artifactEventType(type))).toBe(type);
      }),
    );
  });

  it.each(['handoff.offered', 'artifact.', 'chat.message'])(
    'reads %s as no artifact',
    (eventType) => {
      expect(artifactTypeOf(eventType)).toBeNull();
    },
  );
});
