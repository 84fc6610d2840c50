import { join } from 'node:path';
import { MAIN_BRANCH } from '../workspace-layout.ts';
import { runBoundedHostGit, runHostGit, type GitLocation } from './host-git.ts';

/** What `main` of a project's repository holds, as the line's agents are shown it (ADR 0416). */
export interface RepositorySurvey {
  /** The commit surveyed. */
  commit: string;
  /** Paths of `main`'s tree, in git's order, at most `maxPaths`. */
  paths: string[];
  /** How many paths the tree has in all (more than `paths.length` when cut). */
  totalPaths: number;
  /** The READMEs and package manifests, each cut at `maxDocumentBytes` (AGENTS.md files are instruction files). */
  documents: Array<{ path: string; text: string; truncated: boolean }>;
}

export interface SurveyBudgets {
  maxPaths: number;
  maxDocuments: number;
  maxDocumentBytes: number;
}

export const DEFAULT_SURVEY_BUDGETS: SurveyBudgets = {
  maxPaths: 200,
  maxDocuments: 10,
  maxDocumentBytes: 2000,
};

const MANIFESTS = new Set([
  'package.json',
  'pyproject.toml',
  'requirements.txt',
  'setup.py',
  'Cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'Gemfile',
  'composer.json',
  'deno.json',
  'mix.exs',
]);
const MAX_TREE_BYTES = 1024 * 1024;

/** Which files of the tree the survey reads, most telling first: root READMEs and manifests, then deeper. Pure. */
export function surveyedDocuments(blobs: readonly string[], maxDocuments: number): string[] {
  const kind = (path: string): number | null => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    // AGENTS.md files reach agents as instruction files, held back until accepted when a dev wrote them (ADR 0302).
    if (/^readme(\.(md|markdown|txt|rst))?$/i.test(name)) return 0;
    if (MANIFESTS.has(name)) return 2;
    return null;
  };
  return blobs
    .filter((path) => kind(path) !== null && !path.split('/').includes('node_modules'))
    .map((path) => ({ path, depth: path.split('/').length, kind: kind(path)! }))
    .sort((a, b) => a.depth - b.depth || a.kind - b.kind || a.path.localeCompare(b.path))
    .slice(0, maxDocuments)
    .map((entry) => entry.path);
}

/** The commit `main` of the repository at `workspace` is at, or null when it has none. */
export async function mainCommit(workspace: string): Promise<string | null> {
  const commit = await runHostGit(gitLocation(workspace), [
    'rev-parse',
    '--verify',
    '--quiet',
    `${MAIN_BRANCH}^{commit}`,
  ]).catch(() => '');
  return commit.trim() === '' ? null : commit.trim();
}

function gitLocation(workspace: string): GitLocation {
  return { gitDir: join(workspace, '.git'), workTree: null };
}

/**
 * Surveys of projects' `main`, each made once per commit of `main`: a prompt costs one `rev-parse`, and a new
 * survey only when `main` moved (every Criativo, PO and Arquiteto prompt asks for one).
 */
export function createRepositorySurveys(
  budgets: SurveyBudgets = DEFAULT_SURVEY_BUDGETS,
): (workspace: string) => Promise<RepositorySurvey | null> {
  const latest = new Map<string, RepositorySurvey>();
  return async (workspace) => {
    const commit = await mainCommit(workspace);
    if (commit === null) return null;
    const kept = latest.get(workspace);
    if (kept?.commit === commit) return kept;
    const survey = await surveyCommit(workspace, commit, budgets);
    latest.set(workspace, survey);
    return survey;
  };
}

/**
 * Surveys `main` from git's objects, never the files on disk: `ls-tree` of the commit (so a symbolic link is
 * a path and never followed, a submodule an entry) and `cat-file` of the chosen regular files, each read up
 * to its budget. Through the host git (pinned configuration, time limit). Null when there is no `main`.
 */
export async function surveyRepository(
  workspace: string,
  budgets: SurveyBudgets = DEFAULT_SURVEY_BUDGETS,
): Promise<RepositorySurvey | null> {
  const commit = await mainCommit(workspace);
  return commit === null ? null : surveyCommit(workspace, commit, budgets);
}

async function surveyCommit(
  workspace: string,
  commit: string,
  budgets: SurveyBudgets,
): Promise<RepositorySurvey> {
  const location = gitLocation(workspace);
  const tree = await runBoundedHostGit(
    location,
    ['ls-tree', '-r', '-z', '--full-tree', commit],
    MAX_TREE_BYTES,
    0x00,
  );
  const entries = tree.stdout
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const [meta, path] = [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)];
      const [mode, type, object] = meta.split(' ');
      return { mode: mode!, type: type!, object: object!, path };
    });
  const regular = entries.filter(
    (entry) => entry.type === 'blob' && (entry.mode === '100644' || entry.mode === '100755'),
  );
  const chosen = surveyedDocuments(
    regular.map((entry) => entry.path),
    budgets.maxDocuments,
  );
  const documents = [];
  for (const path of chosen) {
    const object = regular.find((entry) => entry.path === path)!.object;
    const read = await runBoundedHostGit(
      location,
      ['cat-file', 'blob', object],
      budgets.maxDocumentBytes,
    );
    documents.push({ path, text: read.stdout, truncated: read.truncated });
  }
  return {
    commit,
    paths: entries.slice(0, budgets.maxPaths).map((entry) => entry.path),
    totalPaths: tree.truncated ? Math.max(entries.length, budgets.maxPaths + 1) : entries.length,
    documents,
  };
}
