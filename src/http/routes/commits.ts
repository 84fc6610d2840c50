import { createRoute, z } from '@hono/zod-openapi';
import { findProject } from '../../store/index.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import {
  CommitDiffSchema,
  errorResponses,
  idParameter,
  jsonContent,
  shaParameter,
} from '../schemas.ts';

const commitDiff = createRoute({
  method: 'get',
  path: '/api/projects/{id}/commits/{sha}/diff',
  summary:
    "A commit of the project's repository and its diff against its first parent (bounded; `truncated` says when cut)",
  request: { params: z.object({ id: idParameter('id'), sha: shaParameter('sha') }) },
  responses: {
    200: jsonContent(CommitDiffSchema, 'The commit and its diff'),
    ...errorResponses(400, 404),
  },
});

/** Commits of a project's git repository, read for people (the dev agents' work, merges). */
export function commitRoutes({ database, readCommitDiff }: AppDependencies) {
  return newRouter().openapi(commitDiff, async (context) => {
    const { id, sha } = context.req.valid('param');
    const project = await findProject(database, id);
    if (!project)
      return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
    const diff = await readCommitDiff(project.id, sha);
    if (diff === null)
      return context.json(
        apiError('not_found', `No commit ${sha} in this project's repository.`, 'sha'),
        404,
      );
    return context.json(diff, 200);
  });
}
