import { createInstructionFiles } from '../../../harness/index.ts';
import {
  composeTriageWithRag,
  resolveTemplate,
  type ProjectRagSearch,
  type PromptTemplate,
  type RagSearchResult,
} from '../../../memory/index.ts';
import type { CompanionDependencies } from '../companion-dependencies.ts';
import { AGENT_ROSTER, identityFrom } from '../../roster.ts';

/**
 * Test support: companion dependencies for assembling contexts without a database or a model — no
 * workspace, no instruction patch, RAG and templates as given. The model and the store are not wired:
 * the assemble functions never touch them.
 */
export function companionTestDependencies(options: {
  rag?: ((query: string, k: number) => Promise<RagSearchResult>) | null;
  templates?: Record<string, string> | Error;
  graphTemplatesEnabled?: boolean;
}): CompanionDependencies & {
  searches: Array<{ query: string; k: number }>;
  templateReads: string[];
} {
  const searches: Array<{ query: string; k: number }> = [];
  const templateReads: string[] = [];
  const rag = options.rag ?? null;
  const ragSearchFor = (): ProjectRagSearch =>
    rag === null
      ? null
      : async (request) => {
          searches.push({ query: request.query, k: request.k });
          return rag(request.query, request.k);
        };
  const readTemplate = async (name: string): Promise<PromptTemplate | null> => {
    templateReads.push(name);
    if (options.templates instanceof Error) throw options.templates;
    const body = options.templates?.[name];
    return body === undefined ? null : { name, version: 2, body };
  };
  return {
    database: undefined as never,
    eventLog: undefined as never,
    gateway: undefined as never,
    prompts: {
      identity: identityFrom(AGENT_ROSTER),
      instructionFiles: createInstructionFiles({
        flags: { graph_instruction_templates_enabled: false },
        clock: () => 0,
      }),
      workspaceDirectory: () => '/nonexistent/forja-test-workspace',
    },
    triage: (_projectId, input) => composeTriageWithRag({ ...input, search: ragSearchFor() }),
    kickoff: (name, inline) =>
      resolveTemplate({
        enabled: options.graphTemplatesEnabled ?? false,
        name,
        inline,
        read: readTemplate,
      }),
    newId: () => 'id',
    searches,
    templateReads,
  };
}
