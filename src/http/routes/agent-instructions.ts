import { createRoute, z } from '@hono/zod-openapi';
import { AGENT_SLUGS } from '../../harness/index.ts';
import { findProject, readAgentInstructions, writeAgentInstructions } from '../../store/index.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonBody, jsonContent, text } from '../schemas.ts';

const MAX_INSTRUCTION_CHARACTERS = 64_000;
const parameters = z.object({
  id: idParameter('id'),
  slug: z.enum(AGENT_SLUGS, { error: `must be one of ${AGENT_SLUGS.join(', ')}` }).openapi({ param: { name: 'slug', in: 'path' } }),
});
const InstructionsSchema = z.object({ project_id: z.uuid(), agent: z.string(), content: z.string(), updated_at: z.string().nullable() }).openapi('AgentInstructions');
const NewInstructionsSchema = z.strictObject({ content: text().max(MAX_INSTRUCTION_CHARACTERS, `must be at most ${MAX_INSTRUCTION_CHARACTERS} characters`) }).openapi('NewAgentInstructions');

const read = createRoute({
  method: 'get',
  path: '/api/projects/{id}/agents/{slug}/instructions',
  summary: "The agent's instruction patch for this project (highest priority of its instruction files)",
  request: { params: parameters },
  responses: { 200: jsonContent(InstructionsSchema, 'The patch (empty content when none)'), ...errorResponses(400, 404) },
});
const write = createRoute({
  method: 'put',
  path: '/api/projects/{id}/agents/{slug}/instructions',
  summary: "Replace the agent's instruction patch (empty content removes it)",
  request: { params: parameters, body: jsonBody(NewInstructionsSchema) },
  responses: { 200: jsonContent(InstructionsSchema, 'The patch now'), ...errorResponses(400, 404, 413, 415) },
});

export function agentInstructionRoutes({ database, instructionFiles }: AppDependencies) {
  const notFound = (id: string) => apiError('not_found', `No project with id ${id}.`, 'id');
  return newRouter()
    .openapi(read, async (context) => {
      const { id, slug } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound(id), 404);
      const patch = await readAgentInstructions(database, id, slug);
      return context.json(patch ?? { project_id: id, agent: slug, content: '', updated_at: null }, 200);
    })
    .openapi(write, async (context) => {
      const { id, slug } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound(id), 404);
      await writeAgentInstructions(database, id, slug, context.req.valid('json').content);
      // The cache is per (workspace, project, agent): every workspace of this agent reads the new patch.
      instructionFiles.invalidate({ projectId: id, agent: slug });
      const patch = await readAgentInstructions(database, id, slug);
      return context.json(patch ?? { project_id: id, agent: slug, content: '', updated_at: null }, 200);
    });
}
