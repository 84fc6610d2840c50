import { topologicalOrder } from '../../domain/architecture/index.ts';
import type { SessionEvent } from '../../domain/conversation/index.ts';
import { type Database, readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';
import { devBlocks } from './dev-blocks.ts';
import { LINE_EVENT_TYPES } from '../../domain/line/index.ts';
import { lineModules, type ModuleLine } from './line-events.ts';

/**
 * The modules whose integration check ran nothing in the last merge into `dev` (a default check without its
 * stack's marker file): the line's end says so instead of "passed". The last `module.merged` ran every merged
 * module's check.
 */
function checksSkipped(events: readonly SessionEvent[]): string[] {
  const last = events.filter((event) => event.type === LINE_EVENT_TYPES.merged).at(-1);
  const { checks } = (last?.payload ?? {}) as {
    checks?: Array<{ module: string; skipped?: boolean }>;
  };
  return (checks ?? []).filter((check) => check.skipped === true).map((check) => check.module);
}

/**
 * `GET /api/sessions/:id/line`: each module of the current map in dependency order with its tasks (the
 * backlog's: a split task gives way to its parts), the line's end (`line.completed`) and the person's merge of
 * it into main (`line.merged_into_main`).
 */
export async function sessionLine(
  database: Database,
  projectId: string,
  events: readonly SessionEvent[],
): Promise<{
  modules: Array<ModuleLine & { tasks: string[] }>;
  completed: { commit: string; seq: number; checks_skipped: string[] } | null;
  merged_into_main: { commit: string; dev_commit: string; seq: number } | null;
}> {
  const intoMain = events.find((event) => event.type === LINE_EVENT_TYPES.mergedIntoMain);
  const merged_into_main =
    intoMain === undefined
      ? null
      : {
          commit: String((intoMain.payload as { commit: unknown }).commit),
          dev_commit: String((intoMain.payload as { dev_commit: unknown }).dev_commit),
          seq: intoMain.seq,
        };
  const last = events.filter((event) => event.type === LINE_EVENT_TYPES.completed).at(-1);
  const completed =
    last === undefined
      ? null
      : {
          commit: String((last.payload as { commit: unknown }).commit),
          seq: last.seq,
          checks_skipped: checksSkipped(events),
        };
  const [architecture, backlog] = await Promise.all([
    readProjectArchitecture(database, projectId),
    readProjectBacklog(database, projectId),
  ]);
  const map = architecture.module_map?.data;
  if (map === undefined) return { modules: [], completed, merged_into_main };
  const order = topologicalOrder(map);
  const blocks = devBlocks(events).filter((block) => block.status !== 'unblocked');
  const modules = lineModules(
    events,
    order.ok ? order.order : map.modules.map((module) => module.name),
    (module) => blocks.filter((block) => block.module === module).length,
  ).map((line) => ({
    ...line,
    tasks: backlog.tasks.filter((task) => task.module === line.module).map((task) => task.id),
  }));
  return { modules, completed, merged_into_main };
}
