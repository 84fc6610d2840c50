import { createRoute, z } from '@hono/zod-openapi';
import {
  deleteProjectRemote,
  findProject,
  findProjectRemote,
  listProjectRemotes,
  putProjectRemote,
  type ProjectRemote,
} from '../../store/index.ts';
import {
  checkPushBranch,
  credentialVariables,
  MAIN_BRANCH,
  pushMain,
  REMOTE_NAME_PATTERN,
  remoteTargetOnDisk,
} from '../../workspace/index.ts';
import { notOwnerError, personOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonBody, jsonContent, text } from '../schemas.ts';

const remoteName = () =>
  z
    .string()
    .regex(REMOTE_NAME_PATTERN, 'must be 1 to 40 of a-z, 0-9, _ and -, starting with a letter');
const RemoteSchema = z
  .object({
    name: z.string(),
    url: z.string(),
    updated_at: z.string(),
    /** The variable whose value is the push's token (FORJA_GIT_TOKEN_<NAME>), and whether it is set. */
    token_variable: z.string(),
    token_set: z.boolean(),
  })
  .openapi('ProjectRemote');
const PutRemoteSchema = z
  .strictObject({ url: text().max(2048, 'must be at most 2048 characters') })
  .openapi('PutProjectRemote');
const PushSchema = z
  .strictObject({ remote: remoteName(), branch: text().max(200).optional() })
  .openapi('PushRequest');
const PushedSchema = z
  .object({ remote: z.string(), branch: z.string(), commit: z.string() })
  .openapi('Pushed');
const projectParameters = z.object({ id: idParameter('id') });
const remoteParameters = z.object({
  id: idParameter('id'),
  name: remoteName().openapi({ param: { name: 'name', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/projects/{id}/remotes',
  summary: "The remotes the project's main may be pushed to",
  request: { params: projectParameters },
  responses: {
    200: jsonContent(z.object({ remotes: z.array(RemoteSchema) }), 'Remotes'),
    ...errorResponses(400, 404),
  },
});
const putRoute = createRoute({
  method: 'put',
  path: '/api/projects/{id}/remotes/{name}',
  summary:
    'Declare a remote (owner only): an http(s) URL without credentials, or a path on the host',
  request: { params: remoteParameters, body: jsonBody(PutRemoteSchema) },
  responses: {
    200: jsonContent(RemoteSchema, 'The remote'),
    ...errorResponses(400, 403, 404, 413, 415, 422),
  },
});
const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/projects/{id}/remotes/{name}',
  summary: 'Remove a remote (owner only)',
  request: { params: remoteParameters },
  responses: { 204: { description: 'Removed' }, ...errorResponses(400, 403, 404) },
});
const pushRoute = createRoute({
  method: 'post',
  path: '/api/projects/{id}/push',
  summary: "Push the project's main to a declared remote's branch (main unless told), never forced",
  request: { params: projectParameters, body: jsonBody(PushSchema) },
  responses: {
    200: jsonContent(PushedSchema, 'Pushed'),
    ...errorResponses(400, 404, 409, 413, 415, 422, 502),
  },
});

const PATH_NEEDS_NO_ACCOUNTS =
  "A remote on Forja's host is pushed to only while Forja has no accounts; declare an http(s) URL.";

/** The project's remotes and the push of `main` to one of them (ADR 0415). */
export function remoteRoutes({
  database,
  dataDirectory,
  pushCredentials,
  workspaceDirectory,
}: AppDependencies) {
  const shown = (remote: ProjectRemote) => {
    const variable = credentialVariables(remote.name).token;
    return {
      ...remote,
      token_variable: variable,
      token_set: pushCredentials?.(remote.name) != null,
    };
  };
  const projectNotFound = (id: string) => apiError('not_found', `No project with id ${id}.`, 'id');
  return newRouter()
    .openapi(listRoute, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(projectNotFound(id), 404);
      return context.json({ remotes: (await listProjectRemotes(database, id)).map(shown) }, 200);
    })
    .openapi(putRoute, async (context) => {
      const { id, name } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(projectNotFound(id), 404);
      const notOwner = notOwnerError(context, 'declares where its work is pushed');
      if (notOwner !== null) return context.json(notOwner, 403);
      const { url } = context.req.valid('json');
      const target = await remoteTargetOnDisk(url, dataDirectory);
      if (!('kind' in target))
        return context.json(apiError('invalid_remote', target.message, target.field), 400);
      if (target.kind === 'path' && personOf(context) !== null)
        return context.json(apiError('remote_refused', PATH_NEEDS_NO_ACCOUNTS, 'url'), 422);
      return context.json(shown(await putProjectRemote(database, id, { name, url })), 200);
    })
    .openapi(deleteRoute, async (context) => {
      const { id, name } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(projectNotFound(id), 404);
      const notOwner = notOwnerError(context, 'removes a remote');
      if (notOwner !== null) return context.json(notOwner, 403);
      if (!(await deleteProjectRemote(database, id, name)))
        return context.json(
          apiError('not_found', `The project has no remote ${name}.`, 'name'),
          404,
        );
      return context.body(null, 204);
    })
    .openapi(pushRoute, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(projectNotFound(id), 404);
      const { remote: name, branch = MAIN_BRANCH } = context.req.valid('json');
      const badBranch = checkPushBranch(branch);
      if (badBranch !== null)
        return context.json(apiError('invalid_branch', badBranch.message, 'branch'), 400);
      const remote = await findProjectRemote(database, id, name);
      if (remote === null)
        return context.json(
          apiError(
            'not_found',
            `The project declares no remote ${name} (PUT /api/projects/${id}/remotes/${name}).`,
            'remote',
          ),
          404,
        );
      const target = await remoteTargetOnDisk(remote.url, dataDirectory);
      if (!('kind' in target))
        return context.json(apiError('remote_refused', target.message, 'remote'), 422);
      if (target.kind === 'path' && personOf(context) !== null)
        return context.json(apiError('remote_refused', PATH_NEEDS_NO_ACCOUNTS, 'remote'), 422);
      const pushed = await pushMain(
        workspaceDirectory(id),
        target,
        branch,
        pushCredentials?.(name) ?? null,
      );
      if (pushed.ok) return context.json({ remote: name, branch, commit: pushed.commit }, 200);
      const status = pushed.reason === 'rejected' ? 409 : 502;
      const code = pushed.reason === 'rejected' ? 'push_rejected' : 'push_failed';
      return context.json(
        apiError(code, `Pushing main to ${name} (${branch}) failed: ${pushed.message}`, 'remote'),
        status,
      );
    });
}
