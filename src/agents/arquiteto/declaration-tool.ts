import type { z } from 'zod';
import type {
  ArchitectureArtifactType,
  DeclarationValidation,
  ProjectArchitecture,
} from '../../domain/architecture/index.ts';
import { ARTIFACT_PAYLOAD_VERSION, artifactEvent } from '../../domain/artifacts/index.ts';
import { type AgentTool, checkedByTheTool, defineTool } from '../runtime/agent-tool.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';
import { readProjectArchitecture } from '../../store/index.ts';

/** One of the Arquiteto's declare tools: a versioned artifact, its domain validation, a one-line summary. */
export interface DeclarationToolSpec<Data extends { version: number }> {
  name: string;
  description: string;
  type: ArchitectureArtifactType;
  /** The artifact's schema: what the model is shown. */
  schema: z.ZodType;
  validate(args: unknown, architecture: ProjectArchitecture): DeclarationValidation<Data>;
  summarize(data: Data): string;
}

/**
 * A `direct` declare tool (record ADR 0200: an architectural declaration with no outside effect). The domain
 * validation sees every argument, so its refusal is the full reason with every problem; a version lower
 * than the current one is refused too, because it would be recorded and never be current. An accepted
 * declaration is one `artifact.<type>` event carrying the whole list, and its docs/ file is rewritten and
 * committed on `main` (a docs failure is told to the model; the log, not docs/, is the record).
 */
export function declarationTool<Data extends { version: number }>(
  dependencies: ArquitetoDependencies,
  spec: DeclarationToolSpec<Data>,
): AgentTool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    parameters: checkedByTheTool(spec.schema),
    mode: 'direct',
    run: async (args, context) => {
      const architecture = await readProjectArchitecture(dependencies.database, context.projectId);
      const checked = spec.validate(args, architecture);
      if (!checked.ok) return { ok: false, result: checked.reason };
      const data = checked.declaration;
      const current = architecture[spec.type];
      if (current !== null && data.version < current.version) {
        return {
          ok: false,
          result: `${spec.name} refused (1 problem); nothing was recorded.\n1. version: ${data.version} is lower than the current ${spec.type} version ${current.version}, so it would never be current; declare version ${current.version + 1} with the whole list (a new version replaces the previous one).`,
        };
      }
      const docs = await writeDoc(dependencies, context.projectId, spec.type, data);
      const replaced = current === null ? '' : ` It replaces version ${current.version}.`;
      return {
        ok: true,
        result: `Recorded ${spec.type} version ${data.version}: ${spec.summarize(data)}.${replaced} ${docs}`,
        events: [artifactEvent(spec.type, context.agent, { v: ARTIFACT_PAYLOAD_VERSION, data })],
      };
    },
  });
}

async function writeDoc(
  dependencies: ArquitetoDependencies,
  projectId: string,
  type: ArchitectureArtifactType,
  data: { version: number },
): Promise<string> {
  const written = await dependencies.docs.commit(projectId, type, data);
  return written.error === null
    ? `Written to ${written.path}.`
    : `(${written.path} could not be written: ${written.error}; the declaration is recorded all the same.)`;
}
