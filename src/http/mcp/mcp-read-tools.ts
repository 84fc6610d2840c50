import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { devProgress } from '../../agents/index.ts';
import { listModuleContractsForDev } from '../../domain/architecture/index.ts';
import {
  findSession,
  listProjects,
  listProjectsOfPerson,
  listSessions,
  readProjectArchitecture,
  readProjectBacklog,
} from '../../store/index.ts';
import { moduleName } from '../routes/architecture.ts';
import { uuidText } from '../schemas.ts';
import { defineMcpTool, type McpToolContext, projectOf, registerTool } from './mcp-tool-kit.ts';
import { lineView } from '../line-view.ts';

const listProjectsTool = defineMcpTool({
  name: 'list_projects',
  description: 'The projects you may see, oldest first: id, name, created_at.',
  input: z.strictObject({}),
  readOnly: true,
  run: async (_args, { dependencies, caller }) => ({
    projects:
      caller.person === null
        ? await listProjects(dependencies.database)
        : await listProjectsOfPerson(dependencies.database, caller.person.id),
  }),
});

const listSessionsTool = defineMcpTool({
  name: 'list_sessions',
  description: "A project's sessions, oldest first: id, title, created_at.",
  input: z.strictObject({ project_id: uuidText() }),
  readOnly: true,
  run: async ({ project_id }, context) => {
    await projectOf(context, 'project', project_id, 'project_id');
    return { sessions: await listSessions(context.dependencies.database, project_id) };
  },
});

const readSessionTool = defineMcpTool({
  name: 'read_session',
  description:
    "A session as the web UI shows it: its state (active agents, product brief, handoffs, pending actions, questions, turns in progress), the project's backlog and module map, the module contracts as the dev of `module` reads them (every module in full without it), the devs' progress and the production line's status.",
  input: z.strictObject({ session_id: uuidText(), module: moduleName().optional() }),
  readOnly: true,
  run: async ({ session_id, module }, context) => {
    const projectId = await projectOf(context, 'session', session_id, 'session_id');
    const { database, conversation } = context.dependencies;
    const [view, architecture, backlog] = await Promise.all([
      conversation.views.load(session_id),
      readProjectArchitecture(database, projectId),
      readProjectBacklog(database, projectId),
    ]);
    const { history: _history, ...state } = view.state;
    const contracts = listModuleContractsForDev({
      module: module ?? null,
      moduleMap: architecture.module_map?.data ?? null,
      contracts: architecture.module_contracts?.data ?? null,
    });
    return {
      session: await findSession(database, session_id),
      state,
      backlog,
      module_map: architecture.module_map,
      module_contracts: { module: module ?? null, text: contracts.text },
      devs: devProgress(view.state, view.events),
      line: await lineView(context.dependencies, projectId, view.events),
    };
  },
});

const waitingTool = defineMcpTool({
  name: 'list_waiting',
  description:
    'What in a session waits for you: actions proposed for your approval (approve_action, deny_action), handoffs offered (accept_handoff, reject_handoff) and questions asked (answer_question).',
  input: z.strictObject({ session_id: uuidText() }),
  readOnly: true,
  run: async ({ session_id }, context) => {
    await projectOf(context, 'session', session_id, 'session_id');
    return waitingIn(context, session_id);
  },
});

/** A session's proposed actions, offered handoffs and waiting questions, from its folded state. */
async function waitingIn({ dependencies }: McpToolContext, sessionId: string) {
  const { state } = await dependencies.conversation.views.load(sessionId);
  return {
    actions: state.pending_actions.filter((action) => action.status === 'proposed'),
    handoffs: state.handoffs.filter((handoff) => handoff.status === 'offered'),
    questions: state.questions.filter((question) => question.status === 'asked'),
  };
}

/** The tools that only read. */
export function registerReadTools(server: McpServer, context: McpToolContext): void {
  registerTool(server, listProjectsTool, context);
  registerTool(server, listSessionsTool, context);
  registerTool(server, readSessionTool, context);
  registerTool(server, waitingTool, context);
}
