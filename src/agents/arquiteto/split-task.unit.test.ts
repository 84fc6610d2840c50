import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModuleMap } from '../../domain/architecture/index.ts';
import { type Backlog, currentBacklog, TaskSchema } from '../../domain/artifacts/index.ts';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { nextTaskIds, planTaskSplit, type SplitContext, SplitTaskSchema } from './split-task.ts';

const MAP: ModuleMap = {
  version: 3,
  modules: [
    { name: 'api', stack: 'TS', responsibility: 'A API', dependsOn: [] },
    { name: 'web', stack: 'TS', responsibility: 'A tela', dependsOn: ['api'] },
  ],
};
const task = (id: string, module?: string) => ({
  id,
  story_id: 'HS-001',
  title: `Tarefa ${id}`,
  description: 'Faz a tela e a rota',
  acceptance_criteria: ['responde 201'],
  ...(module === undefined ? {} : { module }),
});
const backlog: Backlog = {
  epics: [],
  stories: [],
  tasks: [task('AT-001', 'api'), task('AT-007', 'web')],
  split: [],
};
const context = (overrides: Partial<SplitContext> = {}): SplitContext => ({
  backlog,
  moduleMap: MAP,
  finished: new Map(),
  merged: new Set(),
  ...overrides,
});
const part = (module: string, title = `Parte ${module}`) => ({
  module,
  title,
  description: `A parte de ${module}`,
});

describe('planTaskSplit', () => {
  it('replaces the task by parts with the next ids, its story and, unless given, its criteria', () => {
    const planned = planTaskSplit(
      {
        task_id: 'AT-001',
        parts: [part('api'), { ...part('web'), acceptance_criteria: ['mostra o pedido'] }],
      },
      context(),
    );
    expect(planned).toEqual({
      ok: true,
      plan: {
        original: { ...task('AT-001', 'api'), split_into: ['AT-008', 'AT-009'] },
        parts: [
          {
            id: 'AT-008',
            story_id: 'HS-001',
            title: 'Parte api',
            description: 'A parte de api',
            acceptance_criteria: ['responde 201'],
            module: 'api',
            split_from: 'AT-001',
          },
          {
            id: 'AT-009',
            story_id: 'HS-001',
            title: 'Parte web',
            description: 'A parte de web',
            acceptance_criteria: ['mostra o pedido'],
            module: 'web',
            split_from: 'AT-001',
          },
        ],
      },
    });
  });

  it.each([
    [
      'an unknown task',
      { task_id: 'AT-404', parts: [part('api')] },
      {},
      'task_id: AT-404 is not a task of the backlog; tasks: AT-001, AT-007',
    ],
    [
      'a task already split',
      { task_id: 'AT-001', parts: [part('api')] },
      {
        backlog: {
          ...backlog,
          tasks: [task('AT-002', 'web')],
          split: [{ ...task('AT-001'), split_into: ['AT-002'] }],
        },
      },
      'task_id: AT-001 was split by the Arquiteto into AT-002 (web); a task is split once',
    ],
    [
      'a finished task',
      { task_id: 'AT-001', parts: [part('api')] },
      { finished: new Map([['AT-001', { commit: 'abcdef0123456789', branch: 'dev-api' }]]) },
      'task_id: AT-001 is finished (committed abcdef012345 on dev-api); a finished task is not split',
    ],
    [
      'an unknown module',
      { task_id: 'AT-001', parts: [part('api'), part('estoque')] },
      {},
      'parts[1].module: "estoque" is not in the current module map (version 3); valid modules: api, web',
    ],
    [
      'a module merged into dev',
      { task_id: 'AT-001', parts: [part('api')] },
      { merged: new Set(['api']) },
      'parts[0].module: api is already merged into dev; a merged module takes no new task',
    ],
    [
      'a repeated part',
      { task_id: 'AT-001', parts: [part('api'), part('api')] },
      {},
      'parts[1]: repeats parts[0] (same module and title)',
    ],
    [
      'a project without a map',
      { task_id: 'AT-001', parts: [part('api')] },
      { moduleMap: null },
      '(arguments): this project has no module map yet',
    ],
  ])('refuses %s, naming the field and the rule', (_name, args, overrides, expected) => {
    const planned = planTaskSplit(args, context(overrides));
    expect(planned.ok).toBe(false);
    const problems = (planned as { problems: Array<{ path: string; message: string }> }).problems;
    expect(problems.map((problem) => `${problem.path}: ${problem.message}`)).toContainEqual(
      expect.stringContaining(expected),
    );
  });

  it('refuses empty parts by the schema, naming the field', () => {
    const parsed = SplitTaskSchema.safeParse({ task_id: 'AT-001', parts: [] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues).toEqual([
      expect.objectContaining({ path: ['parts'], message: 'give at least 1 part' }),
    ]);
  });
});

const moduleName = fc.constantFrom('api', 'web');
const partArbitrary = fc.record({
  module: moduleName,
  title: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim().length > 0),
  description: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim().length > 0),
});

describe('planTaskSplit, for any backlog and parts', () => {
  it('gives fresh distinct ids, parts that are valid tasks tracing back to the task, and a backlog without it', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: 8 }),
        fc.uniqueArray(partArbitrary, {
          minLength: 1,
          maxLength: 10,
          selector: (entry) => `${entry.module}\u0000${entry.title.trim()}`,
        }),
        (numbers, rawParts) => {
          const ids = numbers.map((number) => `AT-${String(number).padStart(3, '0')}`);
          const before: Backlog = {
            epics: [],
            stories: [],
            tasks: ids.map((id) => task(id, 'api')),
            split: [],
          };
          const args = SplitTaskSchema.parse({ task_id: ids[0], parts: rawParts });
          const planned = planTaskSplit(args, context({ backlog: before }));
          if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
          const { original, parts } = planned.plan;
          const fresh = parts.map((item) => item.id);
          expect(new Set(fresh).size).toBe(parts.length);
          expect(fresh.some((id) => ids.includes(id))).toBe(false);
          expect(fresh).toEqual(nextTaskIds(before, parts.length));
          expect(original.split_into).toEqual(fresh);
          parts.forEach((item, index) => {
            expect(TaskSchema.safeParse(item).success).toBe(true);
            expect(item).toMatchObject({ split_from: ids[0], module: args.parts[index]!.module });
          });
          // Recorded like the tool records it, the backlog has the parts and not the task.
          const after = currentBacklog(
            buildSessionEvents(
              's1',
              [...before.tasks, original, ...parts].map((data) => ({
                type: 'artifact.task',
                actor: 'arquiteto',
                payload: { v: 1, data },
              })),
            ),
          );
          expect(after.tasks.map((item) => item.id)).toEqual([...ids.slice(1), ...fresh]);
          expect(after.split.map((item) => item.id)).toEqual([ids[0]]);
        },
      ),
    );
  });

  it('refuses any part whose module is not in the map, at that part', () => {
    fc.assert(
      fc.property(
        fc.array(partArbitrary, { minLength: 0, maxLength: 4 }),
        fc.stringMatching(/^[a-z]{3,8}$/).filter((name) => name !== 'api' && name !== 'web'),
        (others, unknown) => {
          const parts = [...others, { ...part(unknown), title: 'Fora do mapa' }];
          const planned = planTaskSplit({ task_id: 'AT-001', parts }, context());
          expect(planned.ok).toBe(false);
          expect((planned as { problems: Array<{ path: string }> }).problems).toContainEqual(
            expect.objectContaining({ path: `parts[${parts.length - 1}].module` }),
          );
        },
      ),
    );
  });
});
