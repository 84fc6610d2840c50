import pino from 'pino';
import { formatContextReport } from '../agents/index.ts';
import { createForja } from '../composition.ts';
import type { ForjaConfig } from '../config/config.ts';
import { readContextWindowSettings } from '../harness/index.ts';
import { findSession } from '../store/index.ts';
import { withConfiguredDatabase } from './with-configured-database.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SessionContextOptions {
  readonly session: string;
  readonly agent?: string;
  readonly json?: boolean;
}

/**
 * `forja context --session ID --agent SLUG`: exactly what that agent's next model call in the session would
 * send — the figures, the compaction point, the system prompt and each message as sent — read from the
 * configured database with the same environment as the server (FORJA_MODEL, FORJA_MODEL_CONTEXT_TOKENS…).
 * Exit codes: 0, 2 for bad arguments, 1 when the session or the agent cannot be shown.
 */
export async function runSessionContextCommand(
  options: SessionContextOptions,
  config: ForjaConfig,
  io: { env: NodeJS.ProcessEnv; stdout: (text: string) => void; stderr: (text: string) => void },
): Promise<number> {
  if (!UUID.test(options.session)) {
    io.stderr(`forja context: --session '${options.session}': must be a session id (a UUID)\n`);
    return 2;
  }
  if (options.agent === undefined || options.agent === '') {
    io.stderr('forja context: --agent: required\n');
    return 2;
  }
  const agent = options.agent;
  const windows = readContextWindowSettings(io.env);
  if (!windows.ok) {
    io.stderr(`forja context: ${windows.message}\n`);
    return 2;
  }
  return withConfiguredDatabase(config, 'context', io, async (database) => {
    const session = await findSession(database, options.session);
    if (session === null) {
      io.stderr(`forja context: --session '${options.session}': no such session\n`);
      return 1;
    }
    const forja = await createForja(config, pino({ level: 'silent' }), {
      database,
      env: io.env,
      memory: { workers: false },
    });
    try {
      const outcome = await forja.conversation.describeAgentContext(
        session.id,
        session.project_id,
        agent,
      );
      if (!outcome.ok) {
        io.stderr(`forja context: --agent '${agent}': ${outcome.message}\n`);
        return 1;
      }
      const shown = {
        session_id: session.id,
        system: outcome.system,
        layers: outcome.layers,
        tools: outcome.tools,
        ...outcome.context,
      };
      io.stdout(options.json ? `${JSON.stringify(shown, null, 2)}\n` : formatContextReport(shown));
      return 0;
    } finally {
      await forja.close();
    }
  });
}
