import { describe, expect, it } from 'vitest';
import type { ModuleMap } from '../../domain/architecture/index.ts';
import { validateBacklogDeclaration, type BacklogContext } from './validate-backlog-declaration.ts';
import type { Backlog } from '../../domain/artifacts/index.ts';

const epic = {
  id: 'EP-001',
  title: 'Assinatura',
  description: 'Pão por assinatura',
  business_rule_refs: ['rule-1'],
};
const story = {
  id: 'HS-001',
  epic_id: 'EP-001',
  title: 'Assinar',
  description: 'A pessoa assina',
  acceptance_criteria: ['assina em 3 passos'],
};
const task = {
  id: 'AT-001',
  story_id: 'HS-001',
  title: 'Tela de assinatura',
  description: 'Formulário',
  acceptance_criteria: ['valida o CEP'],
};
const empty: Backlog = { epics: [], stories: [], tasks: [], split: [] };
const map: ModuleMap = {
  version: 2,
  modules: [{ name: 'pedidos', stack: 'TS', responsibility: 'Pedidos', dependsOn: [] }],
};
const context = (overrides: Partial<BacklogContext> = {}): BacklogContext => ({
  backlog: empty,
  moduleMap: null,
  businessRuleIds: ['rule-1'],
  ...overrides,
});

describe('validateBacklogDeclaration', () => {
  it('accepts a whole backlog and fills defaults', () => {
    const checked = validateBacklogDeclaration(
      { epics: [epic], stories: [story], tasks: [task] },
      context(),
    );
    expect(checked).toEqual({
      ok: true,
      declaration: {
        epics: [{ ...epic, acceptance_criteria: [] }],
        stories: [story],
        tasks: [task],
      },
    });
  });

  it('accepts items that point at what the backlog already holds', () => {
    expect(
      validateBacklogDeclaration(
        { tasks: [task] },
        context({ backlog: { epics: [epic as never], stories: [story], tasks: [], split: [] } }),
      ).ok,
    ).toBe(true);
  });

  it.each<[string, unknown, Partial<BacklogContext>, string]>([
    ['nothing declared', {}, {}, '(arguments): declare at least one epic, story or task'],
    ['an unknown field', { epicos: [] }, {}, 'Unrecognized key: "epicos"'],
    [
      "an id not in the records' style",
      { epics: [{ ...epic, id: 'E1' }] },
      {},
      'epics[0].id: must look like EP-030',
    ],
    [
      'a story without acceptance criteria',
      { epics: [epic], stories: [{ ...story, acceptance_criteria: [] }] },
      {},
      'stories[0].acceptance_criteria: must have at least 1 item',
    ],
    [
      'an id declared twice',
      { epics: [epic, epic] },
      {},
      'epics[1].id: EP-001 is declared twice in this call',
    ],
    [
      'a story under an unknown epic',
      { stories: [story] },
      {},
      'stories[0].epic_id: epic EP-001 does not exist',
    ],
    [
      'a task under an unknown story',
      { tasks: [task] },
      {},
      'tasks[0].story_id: story HS-001 does not exist',
    ],
    [
      'a rule that is not of this session',
      { epics: [{ ...epic, business_rule_refs: ['rule-9'] }] },
      {},
      'epics[0].business_rule_refs[0]: rule-9 is not a business rule of this session; valid: rule-1',
    ],
    [
      'a module before any map',
      { epics: [epic], stories: [story], tasks: [{ ...task, module: 'pedidos' }] },
      {},
      'tasks[0].module: there is no module map yet',
    ],
    [
      'a module not in the map',
      { epics: [epic], stories: [story], tasks: [{ ...task, module: 'estoque' }] },
      { moduleMap: map },
      'tasks[0].module: "estoque" is not a module of the current map (version 2); valid modules: pedidos',
    ],
    [
      'a task the Arquiteto split, declared again',
      { epics: [epic], stories: [story], tasks: [task] },
      {
        backlog: {
          ...empty,
          tasks: [{ ...task, id: 'AT-002', module: 'pedidos', split_from: 'AT-001' }],
          split: [{ ...task, split_into: ['AT-002'] }],
        },
      },
      'tasks[0].id: AT-001 was split by the Arquiteto into AT-002 (pedidos); a split task is not declared again',
    ],
    [
      'what only split_task writes',
      { epics: [epic], stories: [story], tasks: [{ ...task, split_from: 'AT-009' }] },
      {},
      'tasks[0]: Unrecognized key: "split_from"',
    ],
  ])('refuses %s, with the path and the rule', (_name, args, overrides, expected) => {
    const checked = validateBacklogDeclaration(args, context(overrides));
    expect(checked.ok).toBe(false);
    expect((checked as { reason: string }).reason).toContain(expected);
    expect((checked as { reason: string }).reason).toMatch(
      /^declare_backlog refused \(\d+ problems?\); nothing was recorded\./,
    );
  });

  it('reports every problem at once, at the index the model wrote', () => {
    const checked = validateBacklogDeclaration(
      {
        stories: [
          { ...story, id: 'X' },
          { ...story, epic_id: 'EP-404' },
        ],
      },
      context(),
    );
    expect(
      (checked as { reason: string }).reason.split('\n').filter((line) => /^\d+\./.test(line)),
    ).toEqual([
      expect.stringMatching(/^1\. stories\[0\]\.id: must look like HS-071/),
      expect.stringMatching(/^2\. stories\[1\]\.epic_id: epic EP-404 does not exist/),
    ]);
  });
});
