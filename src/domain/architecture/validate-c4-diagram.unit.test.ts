import { describe, expect, it } from 'vitest';
import { deriveC4ContainerView } from './c4-container-view.ts';
import { mapOf } from './test-support/module-maps.ts';
import { validateC4DiagramDeclaration } from './validate-c4-diagram.ts';

const map = mapOf({ api: ['core'], core: [], web: ['api'] }, 2);
const diagram = (overrides: Record<string, unknown> = {}) => ({
  version: 1,
  system: { name: 'Tetris', description: 'A falling-blocks game' },
  actors: [
    { id: 'player', kind: 'person', name: 'Player' },
    { id: 'payments', kind: 'external_system', name: 'Payment gateway' },
  ],
  relations: [
    { from: 'player', to: 'web', description: 'plays in the browser' },
    { from: 'api', to: 'payments', description: 'charges' },
    { from: 'player', to: 'system', description: 'uses' },
  ],
  ...overrides,
});

describe('validateC4DiagramDeclaration', () => {
  it('accepts actors related to the system and to modules of the current map', () => {
    expect(validateC4DiagramDeclaration(diagram(), map).ok).toBe(true);
  });

  it('accepts a diagram without actors or relations', () => {
    const result = validateC4DiagramDeclaration(
      { version: 1, system: { name: 'S', description: 'D' } },
      map,
    );
    expect(result.ok ? result.declaration.actors : null).toEqual([]);
  });

  it.each([
    {
      rule: 'no module map',
      args: diagram(),
      currentMap: null,
      code: 'no_module_map',
      path: '(arguments)',
    },
    {
      rule: 'an endpoint that is neither an actor, the system, nor a module of the current map',
      args: diagram({ relations: [{ from: 'player', to: 'ghost', description: 'x' }] }),
      code: 'unknown_endpoint',
      path: 'relations[0].to',
    },
    {
      rule: 'a relation between two modules (it belongs to dependsOn)',
      args: diagram({ relations: [{ from: 'web', to: 'core', description: 'calls' }] }),
      code: 'module_to_module_relation',
      path: 'relations[0]',
    },
    {
      rule: 'an actor id that shadows a module',
      args: diagram({ actors: [{ id: 'api', kind: 'person', name: 'X' }], relations: [] }),
      code: 'repeated_id',
      path: 'actors[0].id',
    },
    {
      rule: 'a repeated actor id',
      args: diagram({
        actors: [
          { id: 'p', kind: 'person', name: 'A' },
          { id: 'p', kind: 'person', name: 'B' },
        ],
        relations: [],
      }),
      code: 'repeated_id',
      path: 'actors[1].id',
    },
    {
      rule: 'an unknown actor kind',
      args: diagram({ actors: [{ id: 'p', kind: 'robot', name: 'A' }], relations: [] }),
      code: 'invalid_value',
      path: 'actors[0].kind',
    },
    {
      rule: 'a relation to itself',
      args: diagram({ relations: [{ from: 'player', to: 'player', description: 'x' }] }),
      code: 'invalid_value',
      path: 'relations[0].to',
    },
  ])('refuses $rule', ({ args, currentMap, code, path }) => {
    const result = validateC4DiagramDeclaration(args, currentMap === undefined ? map : currentMap);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => ({ code: problem.code, path: problem.path }))).toEqual([
      { code, path },
    ]);
    expect(result.reason).toMatch(/^declare_c4_diagram refused/);
  });

  it('lists the valid endpoints when one is unknown', () => {
    const result = validateC4DiagramDeclaration(
      diagram({ relations: [{ from: 'ghost', to: 'web', description: 'x' }] }),
      map,
    );
    expect(result.ok ? '' : result.reason).toContain(
      'valid: system, payments, player, api, core, web',
    );
  });
});

describe('deriveC4ContainerView', () => {
  it('derives containers from modules and relations from dependsOn', () => {
    expect(deriveC4ContainerView(map)).toEqual({
      containers: [
        { name: 'api', technology: 'TypeScript', description: 'Responsibility of api' },
        { name: 'core', technology: 'TypeScript', description: 'Responsibility of core' },
        { name: 'web', technology: 'TypeScript', description: 'Responsibility of web' },
      ],
      relations: [
        { from: 'api', to: 'core' },
        { from: 'web', to: 'api' },
      ],
    });
  });
});
