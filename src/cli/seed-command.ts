import { createPostgresGraphStore, FIRST_BATCH_TEMPLATES, seedTemplates } from '../memory/index.ts';
import type { Database } from '../store/index.ts';

export interface SeedCommandOptions {
  /** Extra templates as `name=file` (repeatable); a file's whole content is the body. */
  template: string[];
}

export interface SeedCommandIo {
  readFile: (path: string) => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * `forja seed`: writes the first batch of graph templates (and any `--template name=file`), idempotently —
 * the same body again changes nothing, a new body becomes the next version. Prints one line per template.
 * Exit codes: 0 done, 2 a bad `--template` or an unreadable file (nothing written).
 */
export async function runSeedCommand(
  options: SeedCommandOptions,
  database: Database,
  io: SeedCommandIo,
): Promise<number> {
  const templates = [...FIRST_BATCH_TEMPLATES];
  for (const spec of options.template) {
    const equals = spec.indexOf('=');
    if (equals <= 0 || equals === spec.length - 1) {
      io.stderr(`forja seed: --template '${spec}': must be name=file\n`);
      return 2;
    }
    const path = spec.slice(equals + 1);
    try {
      templates.push({ name: spec.slice(0, equals), body: await io.readFile(path) });
    } catch (error) {
      io.stderr(
        `forja seed: --template '${spec}': cannot read ${path}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
  }
  const outcome = await seedTemplates(database, createPostgresGraphStore, templates);
  if (!outcome.ok) {
    io.stderr(`forja seed: ${outcome.reason}\n`);
    return 2;
  }
  for (const result of outcome.results) {
    const what =
      result.outcome === 'unchanged'
        ? `unchanged (v${result.version})`
        : result.outcome === 'created'
          ? 'created v1'
          : `new version v${result.version}`;
    io.stdout(`${result.name}: ${what}\n`);
  }
  return 0;
}
