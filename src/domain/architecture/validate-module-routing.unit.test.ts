import { describe, expect, it } from 'vitest';
import { mapOf } from './test-support/module-maps.ts';
import { validateModuleRoutingDeclaration } from './validate-module-routing.ts';

const map = mapOf({ api: ['core'], core: [], web: ['api'] }, 3);

describe('validateModuleRoutingDeclaration', () => {
  it('accepts routes of modules in the current map (not every module needs one)', () => {
    const result = validateModuleRoutingDeclaration(
      {
        version: 1,
        routes: [
          { module: 'api', infra: 'container: node:24' },
          { module: 'web', infra: 'static site', notes: 'CDN' },
        ],
      },
      map,
    );
    expect(result.ok).toBe(true);
  });

  it.each([
    {
      rule: 'no module map',
      args: { version: 1, routes: [{ module: 'api', infra: 'x' }] },
      currentMap: null,
      code: 'no_module_map',
      path: '(arguments)',
    },
    {
      rule: 'a module not in the current map',
      args: { version: 1, routes: [{ module: 'ghost', infra: 'x' }] },
      code: 'module_not_in_map',
      path: 'routes[0].module',
    },
    {
      rule: 'a module routed twice',
      args: {
        version: 1,
        routes: [
          { module: 'api', infra: 'x' },
          { module: 'api', infra: 'y' },
        ],
      },
      code: 'repeated_module',
      path: 'routes[1].module',
    },
    {
      rule: 'an empty infra',
      args: { version: 1, routes: [{ module: 'api', infra: '' }] },
      code: 'empty_text',
      path: 'routes[0].infra',
    },
    { rule: 'no routes', args: { version: 1, routes: [] }, code: 'invalid_value', path: 'routes' },
  ])('refuses $rule', ({ args, currentMap, code, path }) => {
    const result = validateModuleRoutingDeclaration(
      args,
      currentMap === undefined ? map : currentMap,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => ({ code: problem.code, path: problem.path }))).toEqual([
      { code, path },
    ]);
    expect(result.reason).toMatch(/^route_modules_to_infra refused/);
  });

  it('lists the valid modules when one is unknown', () => {
    const result = validateModuleRoutingDeclaration(
      { version: 1, routes: [{ module: 'ghost', infra: 'x' }] },
      map,
    );
    expect(result.ok ? '' : result.reason).toContain(
      'module "ghost" is not in the current module map (version 3); valid modules: api, core, web',
    );
  });
});
