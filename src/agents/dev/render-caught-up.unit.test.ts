import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { renderCaughtUp } from './render-caught-up.ts';

const caughtUp = (payload: Record<string, unknown>) => ({
  type: 'module.caught_up',
  payload: { v: 1, module: 'clima', ...payload },
});

describe("a dev's worktree from an earlier session, caught up with dev", () => {
  it('is nothing when the session recorded no catch-up of the module', () => {
    expect(
      renderCaughtUp(buildSessionEvents('s', [caughtUp({ module: 'catalogo' })]), 'clima'),
    ).toBeNull();
  });

  it('names the merge commit, or every conflicting path when dev could not be merged', () => {
    const merged = renderCaughtUp(
      buildSessionEvents('s', [caughtUp({ commit: 'a'.repeat(40) })]),
      'clima',
    );
    expect(merged).toContain('foi mesclado no seu branch dev-clima (commit aaaaaaaaaaaa)');
    const conflict = renderCaughtUp(
      buildSessionEvents('s', [
        caughtUp({
          reason: 'merging dev into dev-clima conflicts',
          conflicts: ['src/clima/index.js', 'docs/x.md'],
        }),
      ]),
      'clima',
    );
    expect(conflict).toContain(
      'NÃO pôde ser mesclado no seu branch dev-clima: conflito em src/clima/index.js, docs/x.md',
    );
    const refused = renderCaughtUp(
      buildSessionEvents('s', [
        caughtUp({ reason: 'the worktree is on a detached HEAD', conflicts: [] }),
      ]),
      'clima',
    );
    expect(refused).toContain('dev-clima: the worktree is on a detached HEAD');
  });
});
