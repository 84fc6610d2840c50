import {
  advanceIntegration,
  mergeAllIntoIntegration,
  mergeIntoIntegration,
  removeScratch,
} from './merge-into-integration.ts';
import { syncIntegrationWithMain, type IntegrationSync } from './sync-integration.ts';

/** What the integration check said about a merge in the scratch worktree. */
export interface IntegrationCheck<R> {
  passed: boolean;
  report: R;
}

/** A module's merge into `dev`: made and checked (dev advanced), refused by the check, or conflicting. */
export type ModuleIntegration<R> =
  | { outcome: 'merged'; commit: string; report: R; docs: IntegrationSync }
  | { outcome: 'check_failed'; report: R; docs: IntegrationSync }
  | { outcome: 'conflict'; paths: string[]; docs: IntegrationSync };

/**
 * The whole of one module's way into `dev`, for a caller holding the project's git lock: `main`'s docs/
 * brought into `dev` first (`syncIntegrationWithMain`; a conflict there is returned in `docs` and does not
 * stop the module), the module's branch merged in the scratch worktree, `check` run there, `dev` advanced
 * only when it passed, and the scratch removed whatever happened.
 */
export async function integrateModule<R>(
  repository: string,
  scratch: string,
  branch: string,
  message: string,
  check: (scratch: string) => Promise<IntegrationCheck<R>>,
): Promise<ModuleIntegration<R>> {
  const docs = await syncIntegrationWithMain(repository, scratch);
  try {
    const merge = await mergeIntoIntegration(
      repository,
      scratch,
      branch,
      message,
      docs.ok ? docs.dev : undefined,
    );
    if (!merge.ok) return { outcome: 'conflict', paths: merge.conflicts, docs };
    const checked = await check(scratch);
    if (!checked.passed) return { outcome: 'check_failed', report: checked.report, docs };
    await advanceIntegration(repository, merge.commit, merge.onto);
    return { outcome: 'merged', commit: merge.commit, report: checked.report, docs };
  } finally {
    await removeScratch(repository, scratch);
  }
}

/** Several modules' merges into `dev` made and checked together: all merged (dev advanced), or none. */
export type ModulesIntegration<R> =
  | { outcome: 'merged'; commits: string[]; report: R; docs: IntegrationSync }
  | { outcome: 'not_merged'; docs: IntegrationSync };

/**
 * `integrateModule` of several branches at once (ADR 0428): each merged in turn in the scratch worktree, `check`
 * run once on the last merge, and `dev` advanced to it only when every merge went in and the check passed.
 * Otherwise `dev` stays where it was and nothing says which module failed: the caller merges them one by one.
 */
export async function integrateModules<R>(
  repository: string,
  scratch: string,
  merges: ReadonlyArray<{ branch: string; message: string }>,
  check: (scratch: string) => Promise<IntegrationCheck<R>>,
): Promise<ModulesIntegration<R>> {
  const docs = await syncIntegrationWithMain(repository, scratch);
  try {
    const merge = await mergeAllIntoIntegration(
      repository,
      scratch,
      merges,
      docs.ok ? docs.dev : undefined,
    );
    if (!merge.ok) return { outcome: 'not_merged', docs };
    const checked = await check(scratch);
    if (!checked.passed) return { outcome: 'not_merged', docs };
    await advanceIntegration(repository, merge.commits.at(-1)!, merge.onto);
    return { outcome: 'merged', commits: merge.commits, report: checked.report, docs };
  } finally {
    await removeScratch(repository, scratch);
  }
}
