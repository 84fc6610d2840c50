import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  anyPersonExists,
  claimDataDirectory,
  createProject,
  findPersonByUsername,
  putMember,
  type Database,
} from '../store/index.ts';
import { importWorkspace, type RepositorySource } from '../workspace/index.ts';
import type { CliIo } from './cli-io.ts';
import { loadSettings } from './load-settings.ts';
import { withConfiguredDatabase } from './with-configured-database.ts';

export interface ImportOptions {
  name?: string;
  ref?: string;
  owner?: string;
}

/** The source a `forja project import` argument names: an http(s) URL, else a path from the working directory. Pure. */
export function sourceOfArgument(
  argument: string,
  ref: string | undefined,
  workingDirectory: string,
): RepositorySource {
  const withRef = ref === undefined ? {} : { ref };
  return /^https?:\/\//i.test(argument)
    ? { git: argument, ...withRef }
    : { path: resolve(workingDirectory, argument), ...withRef };
}

/** The name a project gets when `--name` is not given: the repository's last segment without `.git`. Pure. */
export function defaultProjectName(argument: string): string {
  const last = basename(argument.replace(/[/\\]+$/, '')).replace(/\.git$/i, '');
  return last.trim() === '' ? 'Imported project' : last.slice(0, 200);
}

/**
 * `forja project import <path|url>` (ADR 0355): a new project whose repository is a clone of the given one,
 * on the database and data directory of the settings, like the other commands (with the embedded database,
 * while `forja serve` is stopped). Once accounts exist, `--owner` names who owns it. Exit 0 with the id;
 * 2 for a refusal naming the field and the rule (nothing stored).
 */
export async function runProjectImport(
  argument: string,
  options: ImportOptions,
  database: Database,
  dataDirectory: string,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
  workingDirectory = process.cwd(),
): Promise<number> {
  const refuse = (message: string) => {
    io.stderr(`forja project import: ${message}\n`);
    return 2;
  };
  const name = (options.name ?? defaultProjectName(argument)).trim();
  if (name === '' || name.length > 200) return refuse('--name must be 1 to 200 characters.');
  let ownerId: string | null = null;
  if (options.owner !== undefined) {
    const owner = await findPersonByUsername(database, options.owner);
    if (owner === null) return refuse(`--owner: there is no account named ${options.owner}.`);
    ownerId = owner.id;
  } else if (await anyPersonExists(database))
    return refuse('--owner NAME is required once accounts exist (who owns the new project).');
  await claimDataDirectory(database, dataDirectory);
  const imported = await importWorkspace(
    dataDirectory,
    sourceOfArgument(argument, options.ref, workingDirectory),
    (id) =>
      database.transaction(async (transaction) => {
        const project = await createProject(transaction, { id, name });
        if (ownerId !== null)
          await putMember(transaction, { projectId: id, personId: ownerId, role: 'owner' });
        return project;
      }),
  );
  if (!imported.ok) {
    const flag = imported.refusal.field === 'source.ref' ? '--ref' : 'the repository';
    return refuse(`${flag}: ${imported.refusal.message}`);
  }
  io.stdout(`Imported ${imported.stored.name} (${imported.stored.id}).\n`);
  return 0;
}

/** Registers `forja project import`. */
export function registerProjectCommands(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  program
    .command('project')
    .description('Projects')
    .command('import <source>')
    .description(
      "Create a project whose repository is a clone of <source> (a directory or an http(s) URL): history kept, main at --ref or the source's default branch; nothing of the repository is run",
    )
    .option('--name <name>', 'the project name (default: the repository name)')
    .option(
      '--ref <ref>',
      "the branch or tag main starts at (default: the source's default branch)",
    )
    .option('--owner <username>', 'who owns the project (required once accounts exist)')
    .action(async (source: string, options: ImportOptions) => {
      const loaded = loadSettings(io.env);
      if (!loaded.ok) {
        io.stderr(`forja: ${loaded.error.message}\n`);
        setExitCode(2);
        return;
      }
      const { config } = loaded;
      setExitCode(
        await withConfiguredDatabase(config, 'project import', io, (database) =>
          runProjectImport(source, options, database, config.dataDirectory, io),
        ),
      );
    });
}
