import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACT_PAYLOAD_VERSION } from '../../../domain/artifacts/index.ts';
import { rehydrate } from '../../../domain/conversation/index.ts';
import { offerHandoff, transitionHandoff } from '../../../domain/handoffs/index.ts';
import { createHooks, type InstructionFiles } from '../../../harness/index.ts';
import {
  createLocalEmbedder,
  createPostgresVectorIndex,
  ragSearch,
} from '../../../memory/index.ts';
import {
  createEventLog,
  recordingTurnEnds,
  createProject,
  createSession,
  insertHandoff,
  updateHandoffStatus,
  type Database,
  type NewSessionEvent,
} from '../../../store/index.ts';
import type { TestDatabaseEngine } from '../../../store/testing/test-databases.ts';
import {
  createArchitectureDocs,
  createProjectWorkspaces,
  createTerminalRunner,
  DEFAULT_TERMINAL_SETTINGS,
  type TerminalSettings,
  worktreeFiles,
} from '../../../workspace/index.ts';
import type { AgentTool, ToolOutcome } from '../../runtime/agent-tool.ts';
import { runToolCall } from '../../runtime/run-tool-call.ts';
import { AGENT_ROSTER, identityFrom } from '../../roster.ts';

/**
 * A project with one session on a fresh test database and a scratch data directory: what the line's tools
 * need, and `call`, which runs a tool exactly as the loop does (argument parsing, ignored arguments, the
 * events of a success appended to the log).
 */
export async function openLineFixture(
  engine: TestDatabaseEngine,
  options: {
    terminal?: Partial<TerminalSettings>;
    bubblewrapPath?: string;
    database?: Database;
  } = {},
) {
  // A database given by the caller (shared by a file's tests, each with a project of its own) stays open.
  const database: Database = options.database ?? (await engine.open());
  const dataDirectory = await mkdtemp(join(tmpdir(), 'forja-line-'));
  const project = await createProject(database, { name: 'Padaria' });
  const session = await createSession(database, { projectId: project.id, title: null });
  const eventLog = recordingTurnEnds(createEventLog(database));
  const workspaces = createProjectWorkspaces({ dataDirectory });
  const instructionFiles = { load: async () => ({ sources: [] }) } as unknown as InstructionFiles;
  const terminal = createTerminalRunner(
    { ...DEFAULT_TERMINAL_SETTINGS, ...options.terminal },
    options.bubblewrapPath === undefined ? {} : { bubblewrapPath: options.bubblewrapPath },
  );
  // The memory's real hybrid search over this database, with the local embedder (what Forja uses by default).
  const search = {
    embedder: createLocalEmbedder(),
    index: await createPostgresVectorIndex(database),
  };
  const line = {
    prompts: {
      identity: identityFrom(AGENT_ROSTER),
      instructionFiles,
      workspaceDirectory: workspaces.workspaceDirectory,
    },
    database,
    eventLog,
    workspaces,
    docs: createArchitectureDocs(workspaces),
    files: worktreeFiles,
    terminal,
    ragSearch: (projectId: string, request: { query: string; k: number }) =>
      ragSearch(search, projectId, request),
    rag: search,
    newId: randomUUID,
  };
  let calls = 0;

  const record = async (events: NewSessionEvent[]) => {
    const appended = await eventLog.append(session.id, events);
    if (!appended.success) throw new Error(appended.error.message);
    return appended.events;
  };
  return {
    database,
    dataDirectory,
    projectId: project.id,
    sessionId: session.id,
    eventLog,
    workspaces,
    line,
    record,
    /** Appends an artifact as its tool would (`artifact.<type>` with `{v, data}`). */
    recordArtifact: (type: string, data: unknown, actor = 'arquiteto') =>
      record([{ type: `artifact.${type}`, actor, payload: { v: ARTIFACT_PAYLOAD_VERSION, data } }]),
    async call(
      tools: readonly AgentTool[],
      name: string,
      args: unknown,
      who: { agent: string; module?: string | null },
      signal?: AbortSignal,
    ): Promise<ToolOutcome> {
      const events = await eventLog.read(session.id, { limit: 100_000 });
      const call = { id: `call_${(calls += 1)}`, name, arguments: args };
      const context = {
        projectId: project.id,
        sessionId: session.id,
        agent: who.agent,
        module: who.module ?? null,
        state: rehydrate(events),
        events,
        ...(signal === undefined ? {} : { signal }),
      };
      const outcome = await runToolCall(call, tools, createHooks(), context);
      if (outcome.events !== undefined && outcome.events.length > 0)
        await record(outcome.events as NewSessionEvent[]);
      return outcome;
    },
    /** An accepted handoff from `from` to `to` and the activation of `to`, as the person's acceptance leaves them. */
    async acceptHandoff(from: string, to: string): Promise<string> {
      const offered = offerHandoff({
        id: randomUUID(),
        session_id: session.id,
        from_agent: from,
        to_agent: to,
        artifact_id: null,
        actor: 'system',
      });
      if (!offered.ok) throw new Error(offered.reason);
      const accepted = transitionHandoff(offered.handoff, { type: 'accept', actor: 'user' });
      if (!accepted.ok) throw new Error(accepted.reason);
      await insertHandoff(database, accepted.handoff);
      await updateHandoffStatus(database, accepted.handoff);
      await record([
        offered.event,
        accepted.event,
        {
          type: 'agent.activated',
          actor: 'system',
          payload: { v: 1, agent: to, handoff_id: offered.handoff.id },
        },
      ]);
      return offered.handoff.id;
    },
    async artifactTypes(): Promise<string[]> {
      return (await eventLog.read(session.id, { limit: 100_000 }))
        .map((event) => event.type)
        .filter((type) => type.startsWith('artifact.'));
    },
    async close() {
      if (options.database === undefined) await database.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

export type LineFixture = Awaited<ReturnType<typeof openLineFixture>>;
