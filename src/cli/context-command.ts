import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { MODULE_NAME_PATTERN } from '../domain/architecture/index.ts';
import { AGENT_ROSTER, AGENT_SLUGS, identityFrom, isAgentSlug } from '../agents/index.ts';
import {
  LAYER_NAMES,
  TOKENIZER_NAMES,
  assemblePrompt,
  agentFamily,
  createInstructionFiles,
  formatAssemblyReport,
  instructionBudgetForWindow,
  instructionUnits,
  normalizeScope,
  tokenizerNameFromEnvironment,
  isLayerName,
  isTokenizerName,
  tokenizerFromName,
  type InstructionFiles,
  type InstructionPatchSource,
  type LayerName,
  type PromptUnit,
} from '../harness/index.ts';

/** The raw option values of `forja context`, as the argument parser hands them over. */
export interface ContextCommandOptions {
  readonly workspace?: string;
  readonly agent?: string;
  readonly project?: string;
  readonly contextFile?: string;
  readonly rulesFile?: string;
  readonly taskFile?: string;
  /** Each `LAYER=TOKENS`, in the order given. */
  readonly budget?: readonly string[];
  readonly json?: boolean;
  /** A name of TOKENIZER_NAMES; default: the server's (FORJA_TOKENIZER, else the model's), `estimate` without an environment. */
  readonly tokenizer?: string;
  /** The directory, relative to the workspace, the agent works in: the instruction files on the path to it. */
  readonly scope?: string;
  /** The model's context window in tokens: the instruction layer's budget follows it. */
  readonly window?: string;
  /** A session: show the agent's next call in it instead (`session-context-command.ts`). */
  readonly session?: string;
}

export interface ContextCommandDeps {
  readonly patchSource?: InstructionPatchSource;
  /** The server's loader, when the command shares its cache; a fresh one otherwise. */
  readonly instructionFiles?: InstructionFiles;
  readonly readFile: (path: string) => Promise<string>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The environment, for the server's tokenizer default (FORJA_TOKENIZER, FORJA_MODEL). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds, for the instruction files' cache; Date.now by default. Never printed. */
  readonly clock?: () => number;
}

/** Bad arguments: exit code 2 with a one-line reason naming the option and the rule. */
class ContextUsageError extends Error {
  override readonly name = 'ContextUsageError';
}

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

const ruleFileSchema = z.array(z.object({ id: z.string().min(1), text: z.string() }));

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function parseBudgets(values: readonly string[]): Partial<Record<LayerName, number>> {
  const budgets: Partial<Record<LayerName, number>> = {};
  for (const value of values) {
    const separator = value.indexOf('=');
    if (separator === -1) throw new ContextUsageError(`--budget '${value}': expected LAYER=TOKENS`);
    const layer = value.slice(0, separator);
    const tokens = value.slice(separator + 1);
    if (!isLayerName(layer)) {
      throw new ContextUsageError(
        `--budget '${value}': unknown layer '${layer}' (expected one of: ${LAYER_NAMES.join(', ')})`,
      );
    }
    if (!/^\d+$/.test(tokens) || !Number.isSafeInteger(Number(tokens))) {
      throw new ContextUsageError(`--budget '${value}': TOKENS must be a non-negative integer`);
    }
    if (budgets[layer] !== undefined)
      throw new ContextUsageError(`--budget: layer '${layer}' given more than once`);
    budgets[layer] = Number(tokens);
  }
  return budgets;
}

async function readOptionalFile(
  deps: ContextCommandDeps,
  option: string,
  path: string | undefined,
) {
  if (path === undefined) return undefined;
  try {
    return await deps.readFile(path);
  } catch (error) {
    throw new ContextUsageError(
      `${option} '${path}': cannot read (${oneLine((error as Error).message)})`,
    );
  }
}

function parseRules(path: string, text: string): PromptUnit[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ContextUsageError(
      `--rules-file '${path}': not JSON (expected an array of {id, text}, oldest first)`,
    );
  }
  const parsed = ruleFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `at [${issue.path.join('].[')}]` : 'at the top level';
    const rule = 'expected an array of {id: non-empty string, text: string}, oldest first';
    throw new ContextUsageError(
      `--rules-file '${path}': ${where}: ${oneLine(issue?.message ?? 'invalid')} (${rule})`,
    );
  }
  const seen = new Set<string>();
  for (const rule of parsed.data) {
    if (seen.has(rule.id))
      throw new ContextUsageError(`--rules-file '${path}': id '${rule.id}' appears more than once`);
    seen.add(rule.id);
  }
  return parsed.data.map((rule) => ({ id: rule.id, text: rule.text }));
}

async function checkWorkspace(workspace: string | undefined): Promise<string> {
  if (workspace === undefined || workspace === '')
    throw new ContextUsageError('--workspace: required');
  const found = await stat(workspace).catch(() => undefined);
  if (found === undefined)
    throw new ContextUsageError(`--workspace '${workspace}': no such directory`);
  if (!found.isDirectory())
    throw new ContextUsageError(`--workspace '${workspace}': not a directory`);
  return workspace;
}

function checkAgent(agent: string | undefined): string {
  if (agent === undefined || agent === '') throw new ContextUsageError('--agent: required');
  const family = agentFamily(agent);
  const module = agent.slice(family.length + 1);
  if (isAgentSlug(agent) || (family === 'dev' && MODULE_NAME_PATTERN.test(module))) return agent;
  throw new ContextUsageError(
    `--agent '${agent}': unknown agent (expected one of: ${AGENT_SLUGS.join(', ')}, or dev:<module>)`,
  );
}

function checkTokenizer(options: ContextCommandOptions, deps: ContextCommandDeps): string {
  if (options.tokenizer === undefined) {
    try {
      return deps.env === undefined ? 'estimate' : tokenizerNameFromEnvironment(deps.env);
    } catch (error) {
      throw new ContextUsageError((error as Error).message);
    }
  }
  if (!isTokenizerName(options.tokenizer)) {
    throw new ContextUsageError(
      `--tokenizer '${options.tokenizer}': unknown (expected one of: ${TOKENIZER_NAMES.join(', ')})`,
    );
  }
  return options.tokenizer;
}

function checkScope(scope: string | undefined): string | undefined {
  if (scope === undefined) return undefined;
  try {
    return normalizeScope(scope);
  } catch (error) {
    throw new ContextUsageError(
      `--scope '${scope}': ${(error as Error).message.replace(/^scope '.*?': /, '')}`,
    );
  }
}

function checkWindow(window: string | undefined): number | undefined {
  if (window === undefined) return undefined;
  if (!/^\d+$/.test(window) || !Number.isSafeInteger(Number(window)) || Number(window) <= 0) {
    throw new ContextUsageError(`--window '${window}': TOKENS must be a positive integer`);
  }
  return Number(window);
}

function checkArguments(options: ContextCommandOptions, deps: ContextCommandDeps) {
  const agent = checkAgent(options.agent);
  const tokenizerName = checkTokenizer(options, deps);
  if (options.project === '') throw new ContextUsageError('--project: must not be empty');
  const budgets = parseBudgets(options.budget ?? []);
  const window = checkWindow(options.window);
  // An explicit --budget for the layer wins over the window's.
  if (window !== undefined && budgets.instruction_files === undefined)
    budgets.instruction_files = instructionBudgetForWindow(window);
  return { agent, tokenizerName, budgets, scope: checkScope(options.scope) };
}

/**
 * How the instruction files were found, for the text view. No time: the debug view is deterministic (two runs on
 * the same inputs print the same bytes), and this command reads the files afresh on every run anyway.
 */
function sourcesLine(loaded: { method?: string }, scope: string | undefined): string {
  const where =
    scope === undefined
      ? 'root and global files'
      : `path to ${scope === '' ? 'the root' : `${scope}/`}`;
  return `instruction files: ${loaded.method ?? 'given'}; ${where}`;
}

async function run(options: ContextCommandOptions, deps: ContextCommandDeps): Promise<number> {
  const { agent, tokenizerName, budgets, scope } = checkArguments(options, deps);
  const workspaceDir = await checkWorkspace(options.workspace);
  const contexto = await readOptionalFile(deps, '--context-file', options.contextFile);
  const tarefa = await readOptionalFile(deps, '--task-file', options.taskFile);
  const rulesText = await readOptionalFile(deps, '--rules-file', options.rulesFile);
  const rules =
    options.rulesFile !== undefined && rulesText !== undefined
      ? parseRules(options.rulesFile, rulesText)
      : [];
  const loader =
    deps.instructionFiles ??
    createInstructionFiles({
      ...(deps.patchSource ? { patchSource: deps.patchSource } : {}),
      flags: { graph_instruction_templates_enabled: false },
      clock: deps.clock ?? Date.now,
    });
  const loaded = await loader.load({
    workspaceDir,
    agent,
    ...(options.project ? { projectId: options.project } : {}),
    ...(scope === undefined ? {} : { scope }),
  });
  const tokenizer = await tokenizerFromName(tokenizerName);
  const report = assemblePrompt(
    {
      agent,
      identidade: identityFrom(AGENT_ROSTER)(agent),
      instruction_files: instructionUnits(loaded.sources),
      ...(contexto !== undefined ? { contexto_projeto: contexto } : {}),
      regras_negocio: rules,
      ...(tarefa !== undefined ? { estado_tarefa: tarefa } : {}),
    },
    { budgets, tokenizer },
  );
  if (options.json) {
    const instructions = { scope: scope ?? null, method: loaded.method ?? null };
    deps.stdout(`${JSON.stringify({ ...report, instructions }, null, 2)}\n`);
    for (const skip of loaded.skipped)
      deps.stderr(`forja context: skipped ${skip.path}: ${skip.reason}\n`);
  } else {
    const text = formatAssemblyReport(report, {
      tokenizerName: tokenizer.name,
      skipped: loaded.skipped,
    });
    const firstLineEnd = text.indexOf('\n', text.indexOf('\n') + 1); // after agent and tokenizer
    deps.stdout(
      `${text.slice(0, firstLineEnd + 1)}${sourcesLine(loaded, scope)}\n${text.slice(firstLineEnd + 1)}`,
    );
  }
  return EXIT_OK;
}

/**
 * `forja context`: assembles the prompt an agent would get and prints each layer (strategy, budget, tokens,
 * status, what was cut) and the prompt, or with `json` the assembly report object. Returns the exit code:
 * 0, 2 for bad arguments (one line naming the option and the rule), 1 when a source fails to load.
 */
export async function runContextCommand(
  options: ContextCommandOptions,
  deps: ContextCommandDeps,
): Promise<number> {
  try {
    return await run(options, deps);
  } catch (error) {
    if (error instanceof ContextUsageError) {
      deps.stderr(`forja context: ${error.message}\n`);
      return EXIT_USAGE;
    }
    deps.stderr(
      `forja context: ${oneLine(error instanceof Error ? error.message : String(error))}\n`,
    );
    return EXIT_FAILURE;
  }
}
