import { createRoute, z } from '@hono/zod-openapi';
import { AGENT_SLUGS, isAgentSlug } from '../../agents/index.ts';
import {
  type Database,
  findProject,
  readAgentInstructions,
  readProjectArchitecture,
  writeAgentInstructions,
} from '../../store/index.ts';
import { notOwnerError } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonBody, jsonContent, text } from '../schemas.ts';

const MAX_INSTRUCTION_CHARACTERS = 64_000;
const parameters = z.object({
  id: idParameter('id'),
  slug: z
    .string()
    .min(1)
    .openapi({
      param: { name: 'slug', in: 'path' },
      description: `One of ${AGENT_SLUGS.join(', ')}, or dev:<module> for a module of the current module map`,
    }),
});
const InstructionsSchema = z
  .object({
    project_id: z.uuid(),
    agent: z.string(),
    content: z.string(),
    updated_at: z.string().nullable(),
  })
  .openapi('AgentInstructions');
const NewInstructionsSchema = z
  .strictObject({
    content: text().max(
      MAX_INSTRUCTION_CHARACTERS,
      `must be at most ${MAX_INSTRUCTION_CHARACTERS} characters`,
    ),
  })
  .openapi('NewAgentInstructions');

const read = createRoute({
  method: 'get',
  path: '/api/projects/{id}/agents/{slug}/instructions',
  summary:
    "The agent's instruction patch for this project (highest priority of its instruction files)",
  request: { params: parameters },
  responses: {
    200: jsonContent(InstructionsSchema, 'The patch (empty content when none)'),
    ...errorResponses(400, 404),
  },
});
const write = createRoute({
  method: 'put',
  path: '/api/projects/{id}/agents/{slug}/instructions',
  summary: "Replace the agent's instruction patch (empty content removes it)",
  request: { params: parameters, body: jsonBody(NewInstructionsSchema) },
  responses: {
    200: jsonContent(InstructionsSchema, 'The patch now'),
    ...errorResponses(400, 403, 404, 413, 415),
  },
});

const DEV_PREFIX = 'dev:';

// The slugs a patch may be stored for: the roster, and `dev:<module>` for each module of the current map
// (a patch for a module's dev is read by that dev, see InstructionFiles). Null when `slug` is one of them.
async function unknownSlugError(database: Database, projectId: string, slug: string) {
  if (isAgentSlug(slug)) return null;
  const modules =
    (await readProjectArchitecture(database, projectId)).module_map?.data.modules.map(
      (entry) => entry.name,
    ) ?? [];
  if (slug.startsWith(DEV_PREFIX) && modules.includes(slug.slice(DEV_PREFIX.length))) return null;
  const devSlugs =
    modules.length === 0
      ? 'no dev:<module> (the project has no module map yet)'
      : modules.map((name) => `${DEV_PREFIX}${name}`).join(', ');
  return apiError(
    'invalid_field',
    `slug: unknown agent "${slug}"; expected one of ${AGENT_SLUGS.join(', ')}, or ${devSlugs}.`,
    'slug',
  );
}

export function agentInstructionRoutes({ database, instructionFiles }: AppDependencies) {
  const notFound = (id: string) => apiError('not_found', `No project with id ${id}.`, 'id');
  return newRouter()
    .openapi(read, async (context) => {
      const { id, slug } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound(id), 404);
      const unknown = await unknownSlugError(database, id, slug);
      if (unknown !== null) return context.json(unknown, 400);
      const patch = await readAgentInstructions(database, id, slug);
      return context.json(
        patch ?? { project_id: id, agent: slug, content: '', updated_at: null },
        200,
      );
    })
    .openapi(write, async (context) => {
      const { id, slug } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound(id), 404);
      const notOwner = notOwnerError(context, "rewrites an agent's instructions");
      if (notOwner !== null) return context.json(notOwner, 403);
      const unknown = await unknownSlugError(database, id, slug);
      if (unknown !== null) return context.json(unknown, 400);
      await writeAgentInstructions(database, id, slug, context.req.valid('json').content);
      // Patches are cached per (project, agent): every workspace of this agent reads the new one.
      instructionFiles.invalidate({ projectId: id, agent: slug });
      const patch = await readAgentInstructions(database, id, slug);
      return context.json(
        patch ?? { project_id: id, agent: slug, content: '', updated_at: null },
        200,
      );
    });
}
