import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { devProgress } from '../../agents/index.ts';
import type { Refusal } from '../../conversation/index.ts';
import {
  MODULE_NAME_PATTERN,
  deriveC4ContainerView,
  listModuleContractsForDev,
} from '../../domain/architecture/index.ts';
import {
  findProject,
  findSession,
  readProjectArchitecture,
  readProjectBacklog,
} from '../../store/index.ts';
import { ARCHITECTURE_DOC_PATHS } from '../../workspace/index.ts';
import { actorOf, notOwnerError } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { lineView } from '../line-view.ts';
import { newRouter } from '../router.ts';
import { errorResponses, idParameter, jsonContent, noBody } from '../schemas.ts';
import {
  AcceptedDevHandoffsSchema,
  BacklogSchema,
  DevProgressSchema,
  KickoffsQueuedSchema,
  ModuleContractsListingSchema,
  ProjectArchitectureSchema,
  SessionLineSchema,
} from '../view-schemas.ts';

const idOnly = z.object({ id: idParameter('id') });
/** A module name, as a dev's module is named in the module map. */
export const moduleName = () =>
  z.string().regex(MODULE_NAME_PATTERN, `must be a module name (${MODULE_NAME_PATTERN.source})`);
const ModuleQuerySchema = z.object({
  module: moduleName()
    .optional()
    .openapi({ param: { name: 'module', in: 'query' }, example: 'board-engine' }),
});
const get = <Schema extends z.ZodType>(path: string, summary: string, schema: Schema) =>
  createRoute({
    method: 'get',
    path,
    summary,
    request: { params: idOnly },
    responses: { 200: jsonContent(schema, summary), ...errorResponses(400, 404) },
  });

const architecture = get(
  '/api/projects/{id}/architecture',
  "The project's current Arquiteto artifacts, every version recorded, and the docs/ files they are written to",
  ProjectArchitectureSchema,
);
const moduleContracts = createRoute({
  method: 'get',
  path: '/api/projects/{id}/module-contracts',
  summary:
    'The module contracts as the dev of `module` reads them (record ADR 0200); without `module`, every module in full',
  request: { params: idOnly, query: ModuleQuerySchema },
  responses: {
    200: jsonContent(ModuleContractsListingSchema, 'The listing, as text and as data'),
    ...errorResponses(400, 404),
  },
});
const backlog = get(
  '/api/projects/{id}/backlog',
  "The project's backlog: epics, stories and tasks at their latest declaration",
  BacklogSchema,
);
const devs = get(
  '/api/sessions/{id}/devs',
  'Each dev agent of the session: its handoff, its blocks and the tasks it committed',
  DevProgressSchema,
);
const lineRoute = get(
  '/api/sessions/{id}/line',
  "Each module's state on the line (not_started until its dev is activated, working, blocked, finished, merged, conflict, failed) with its branch, last check and merged commit, line.completed, line.merged_into_main and, once merged, workspace_path (the project's repository on the server) and clone_path (git clone it from this server)",
  SessionLineSchema,
);
const MergedIntoMainSchema = z
  .object({
    commit: z.string().openapi({ description: 'The merge commit on main' }),
    dev_commit: z.string().openapi({ description: 'The dev commit merged (line.completed)' }),
    instruction_files: z.array(z.string()).openapi({
      description:
        'Instruction files (AGENTS.md, AGENTS.override.md, CLAUDE.md) the line added or changed: they govern no agent until accepted',
    }),
    seq: z.number().int(),
  })
  .openapi('MergedIntoMain');
const AcceptedInstructionFilesSchema = z
  .object({
    accepted: z.array(z.string()).openapi({ description: 'The instruction files accepted' }),
    seq: z.number().int(),
  })
  .openapi('AcceptedInstructionFiles');
const acceptInstructions = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/instructions/accept',
  summary:
    "The person accepts the instruction files the line's devs brought into main (listed by Merge into main): from then on they govern the agents; 409 when none waits",
  request: { params: idOnly, body: noBody },
  responses: {
    201: jsonContent(AcceptedInstructionFilesSchema, 'The files accepted'),
    ...errorResponses(400, 403, 404, 409, 413, 415),
  },
});
const mergeIntoMain = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/line/merge-into-main',
  summary:
    'The person\'s "Merge into main": merges the dev the line completed on into main with a merge commit and records line.merged_into_main; 409 before line.completed, a second time, or on a conflict',
  request: { params: idOnly, body: noBody },
  responses: {
    201: jsonContent(MergedIntoMainSchema, 'The merge commit on main'),
    ...errorResponses(400, 404, 409, 413, 415, 503),
  },
});
const acceptDevs = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/dev-handoffs/accept',
  summary:
    'Accept every offered handoff to a dev agent; their kickoffs run side by side, up to FORJA_MAX_PARALLEL_TURNS at once, the rest in the order offered',
  request: { params: idOnly, body: noBody },
  responses: {
    200: jsonContent(AcceptedDevHandoffsSchema, 'The handoffs accepted'),
    ...errorResponses(400, 404, 413, 415),
  },
});
const kickoffs = createRoute({
  method: 'post',
  path: '/api/sessions/{id}/kickoffs',
  summary:
    'Start the kickoff turn of every agent activated by a handoff that has not had a turn yet',
  request: { params: idOnly, body: noBody },
  responses: {
    202: jsonContent(KickoffsQueuedSchema, 'Queued'),
    ...errorResponses(400, 404, 413, 415),
  },
});

const notFound = (what: string, id: string) =>
  apiError('not_found', `No ${what} with id ${id}.`, 'id');

/** The production line's routes: architecture, contracts and backlog reads, dev progress, dev handoffs, kickoffs, merge into main. */
export function architectureRoutes({
  database,
  conversation,
  workspaceDirectory,
}: AppDependencies) {
  return newRouter()
    .openapi(architecture, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound('project', id), 404);
      const current = await readProjectArchitecture(database, id);
      const containers =
        current.module_map === null ? null : deriveC4ContainerView(current.module_map.data);
      return context.json(
        { ...current, c4_container_view: containers, docs: ARCHITECTURE_DOC_PATHS },
        200,
      );
    })
    .openapi(moduleContracts, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound('project', id), 404);
      const module = context.req.valid('query').module ?? null;
      const current = await readProjectArchitecture(database, id);
      const listing = listModuleContractsForDev({
        module,
        moduleMap: current.module_map?.data ?? null,
        contracts: current.module_contracts?.data ?? null,
      });
      return context.json({ module, text: listing.text, listing: listing.structured }, 200);
    })
    .openapi(backlog, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id))) return context.json(notFound('project', id), 404);
      return context.json(await readProjectBacklog(database, id), 200);
    })
    .openapi(devs, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id))) return context.json(notFound('session', id), 404);
      const view = await conversation.views.load(id);
      return context.json({ devs: devProgress(view.state, view.events) }, 200);
    })
    .openapi(lineRoute, async (context) => {
      const { id } = context.req.valid('param');
      const session = await findSession(database, id);
      if (!session) return context.json(notFound('session', id), 404);
      const view = await conversation.views.load(id);
      const line = await lineView(
        { database, workspaceDirectory },
        session.project_id,
        view.events,
      );
      return context.json(line, 200);
    })
    .openapi(mergeIntoMain, async (context) => {
      const outcome = await conversation.mergeLineIntoMain(
        context.req.valid('param').id,
        actorOf(context),
      );
      return outcome.ok
        ? context.json(
            {
              commit: outcome.commit,
              dev_commit: outcome.dev_commit,
              instruction_files: outcome.instruction_files,
              seq: outcome.seq,
            },
            201,
          )
        : refused(context, outcome);
    })
    .openapi(acceptInstructions, async (context) => {
      // Accepted files govern the agents like an instruction patch: an owner's decision (ADR 0315).
      const notOwner = notOwnerError(context, 'accepts instruction files that govern its agents');
      if (notOwner !== null) return context.json(notOwner, 403);
      const outcome = await conversation.acceptInstructionFiles(
        context.req.valid('param').id,
        actorOf(context),
      );
      return outcome.ok
        ? context.json({ accepted: outcome.accepted, seq: outcome.seq }, 201)
        : refused(context, outcome);
    })
    .openapi(acceptDevs, async (context) => {
      const outcome = await conversation.acceptDevHandoffs(
        context.req.valid('param').id,
        actorOf(context),
      );
      return outcome.ok
        ? context.json({ accepted: outcome.accepted }, 200)
        : refused(context, outcome);
    })
    .openapi(kickoffs, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findSession(database, id))) return context.json(notFound('session', id), 404);
      void conversation.startPendingKickoffs(id);
      return context.json({ queued: true as const }, 202);
    });
}

function refused(context: Context, outcome: Refusal): never {
  return context.json(apiError(outcome.code, outcome.message), outcome.status) as never;
}
