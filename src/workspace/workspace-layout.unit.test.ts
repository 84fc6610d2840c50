import { describe, expect, it } from 'vitest';
import { moduleBranch, workspaceDirectory, worktreeDirectory } from './workspace-layout.ts';

const PROJECT = '0193b7a4-8a5e-7cc1-9d8a-2b1f3c4d5e6f';

describe('workspace layout', () => {
  it('keeps the workspace and the worktrees apart under the project', () => {
    expect(workspaceDirectory('/data', PROJECT)).toBe(`/data/projects/${PROJECT}/workspace`);
    expect(worktreeDirectory('/data', PROJECT, 'board-engine')).toBe(
      `/data/projects/${PROJECT}/worktrees/board-engine`,
    );
  });

  it('names module branches dev-<module>, which can live beside the integration branch dev', () => {
    expect(moduleBranch('board-engine')).toBe('dev-board-engine');
  });

  it.each(['../x', 'a/b', 'Board', ''])('refuses the module name %j as a caller bug', (module) => {
    expect(() => worktreeDirectory('/data', PROJECT, module)).toThrow(/module_name/);
  });

  it('refuses a project id that is not a uuid', () => {
    expect(() => workspaceDirectory('/data', '../../etc')).toThrow(/project_id/);
  });
});
