import { createRoute, z } from '@hono/zod-openapi';
import { newRouter } from '../router.ts';
import {
  createProject,
  findProject,
  listProjects,
  listProjectsOfPerson,
  listSessions,
  putMember,
} from '../../store/index.ts';
import { importWorkspace } from '../../workspace/index.ts';
import { personOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import {
  errorResponses,
  idParameter,
  jsonBody,
  jsonContent,
  ProjectSchema,
  SessionSchema,
  text,
} from '../schemas.ts';

const refField = text().max(200, 'must be at most 200 characters').optional();
const RepositorySourceSchema = z
  .union([
    z.strictObject({ path: text().max(4096, 'must be at most 4096 characters'), ref: refField }),
    z.strictObject({ git: text().max(2048, 'must be at most 2048 characters'), ref: refField }),
  ])
  .openapi('RepositorySource', {
    description:
      "Import: the project's repository is cloned from a directory on Forja's host ({path}, only without accounts) or an http(s) URL ({git}); main and dev start at ref or the source's default branch.",
  });
const NewProjectSchema = z
  .strictObject({
    name: text().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    source: RepositorySourceSchema.optional(),
  })
  .openapi('NewProject');
const NewSessionSchema = z
  .strictObject({
    title: text().trim().max(200, 'must be at most 200 characters').nullable().optional(),
  })
  .openapi('NewSession');
const projectParameters = z.object({ id: idParameter('id') });

const create = createRoute({
  method: 'post',
  path: '/api/projects',
  summary: 'Create a project, or import one from a repository (source)',
  request: { body: jsonBody(NewProjectSchema) },
  responses: { 201: jsonContent(ProjectSchema, 'Created'), ...errorResponses(400, 413, 415, 422) },
});
const list = createRoute({
  method: 'get',
  path: '/api/projects',
  summary: 'List projects, oldest first',
  responses: { 200: jsonContent(z.object({ projects: z.array(ProjectSchema) }), 'Projects') },
});
const show = createRoute({
  method: 'get',
  path: '/api/projects/{id}',
  summary: 'One project',
  request: { params: projectParameters },
  responses: { 200: jsonContent(ProjectSchema, 'The project'), ...errorResponses(400, 404) },
});
const createSessionRoute = createRoute({
  method: 'post',
  path: '/api/projects/{id}/sessions',
  summary: 'Open a session in a project',
  request: { params: projectParameters, body: jsonBody(NewSessionSchema) },
  responses: { 201: jsonContent(SessionSchema, 'Created'), ...errorResponses(400, 404, 413, 415) },
});
const listSessionsRoute = createRoute({
  method: 'get',
  path: '/api/projects/{id}/sessions',
  summary: "A project's sessions, oldest first",
  request: { params: projectParameters },
  responses: {
    200: jsonContent(z.object({ sessions: z.array(SessionSchema) }), 'Sessions'),
    ...errorResponses(400, 404),
  },
});

const PATH_NEEDS_NO_ACCOUNTS = apiError(
  'import_refused',
  "A path on Forja's host is imported only while Forja has no accounts, or with `forja project import` on the host; send source.git (an http(s) URL) instead.",
  'source.path',
);

const projectNotFound = (id: string) => apiError('not_found', `No project with id ${id}.`, 'id');

export function projectRoutes({ database, conversation, dataDirectory }: AppDependencies) {
  return newRouter()
    .openapi(create, async (context) => {
      const person = personOf(context);
      const { name, source } = context.req.valid('json');
      // With accounts, the one who creates a project owns it, in the same transaction.
      const store = (id?: string) =>
        database.transaction(async (transaction) => {
          const created = await createProject(
            transaction,
            id === undefined ? { name } : { name, id },
          );
          if (person !== null)
            await putMember(transaction, {
              projectId: created.id,
              personId: person.id,
              role: 'owner',
            });
          return created;
        });
      if (source === undefined) return context.json(await store(), 201);
      // A path reads the host's disk with Forja's rights: only its one user (no accounts) may name one.
      if ('path' in source && person !== null) return context.json(PATH_NEEDS_NO_ACCOUNTS, 422);
      const imported = await importWorkspace(dataDirectory, source, store);
      if (!imported.ok)
        return context.json(
          apiError('import_refused', imported.refusal.message, imported.refusal.field),
          422,
        );
      return context.json(imported.stored, 201);
    })
    .openapi(list, async (context) => {
      const person = personOf(context);
      return context.json(
        {
          projects:
            person === null
              ? await listProjects(database)
              : await listProjectsOfPerson(database, person.id),
        },
        200,
      );
    })
    .openapi(show, async (context) => {
      const { id } = context.req.valid('param');
      const project = await findProject(database, id);
      return project ? context.json(project, 200) : context.json(projectNotFound(id), 404);
    })
    .openapi(createSessionRoute, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(projectNotFound(id), 404);
      // A title of only spaces is no title.
      const session = await conversation.startSession({
        projectId: id,
        title: context.req.valid('json').title || null,
      });
      return context.json(session, 201);
    })
    .openapi(listSessionsRoute, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(projectNotFound(id), 404);
      return context.json({ sessions: await listSessions(database, id) }, 200);
    });
}
