import { z } from 'zod';
import { topologicalOrder } from '../../domain/architecture/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';
import { handOffWork } from '../line/hand-off-work.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';
import { readDoneTaskIds, readProjectArchitecture, readProjectBacklog } from '../../store/index.ts';

/**
 * `hand_off_to_devs` (direct, no arguments): the Arquiteto's last step. Needs a module map; brings docs/
 * in line with the log, completes the Arquiteto's handoff and offers one handoff per module of the current
 * map to `dev:<module>` (dependencies first), pointing at the map — once tasks are assigned, only to the
 * modules with a task not yet done by an earlier line merged into main (ADR 0416). The person accepts them.
 */
export function handOffToDevsTool(dependencies: ArquitetoDependencies): AgentTool {
  return defineTool({
    name: 'hand_off_to_devs',
    description:
      'When the architecture is declared: completes your handoff and offers one handoff per module of the current map to its dev agent (dev:<module>). No arguments.',
    parameters: z.object({}),
    mode: 'direct',
    run: async (_args, context) => {
      const architecture = await readProjectArchitecture(dependencies.database, context.projectId);
      const map = architecture.module_map;
      if (map === null)
        return {
          ok: false,
          result:
            'hand_off_to_devs refused: there is no module map; declare it with declare_module_map first. Nothing was handed off.',
        };
      const order = topologicalOrder(map.data);
      const [backlog, done] = await Promise.all([
        readProjectBacklog(dependencies.database, context.projectId),
        readDoneTaskIds(dependencies.database, context.projectId),
      ]);
      // Modules that do not change get no dev (ADR 0416): once tasks are assigned, a module gets a dev when it
      // has a task not done by an earlier line merged into main; a module whose tasks are all done never does.
      const tasksOf = (module: string) => backlog.tasks.filter((task) => task.module === module);
      const open = (module: string) => tasksOf(module).some((task) => !done.has(task.id));
      const all = order.ok ? order.order : map.data.modules.map((module) => module.name);
      const anyOpen = all.some(open);
      const modules = all.filter((module) =>
        anyOpen ? open(module) : tasksOf(module).every((task) => !done.has(task.id)),
      );
      const docs = await dependencies.docs.sync(context.projectId, architecture).then(
        () => null,
        (error: unknown) =>
          `docs/ could not be brought up to date: ${error instanceof Error ? error.message : String(error)}.`,
      );
      const inSession = context.state.artifacts.some(
        (artifact) => artifact.event_id === map.event_id,
      );
      const outcome = await handOffWork(dependencies, {
        sessionId: context.sessionId,
        state: context.state,
        from: context.agent,
        to: modules.map((module) => `dev:${module}`),
        artifactId: inSession ? map.event_id : null,
      });
      if (!outcome.ok) return { ok: false, result: `hand_off_to_devs refused: ${outcome.reason}.` };
      const notes: string[] = docs === null ? [] : [docs];
      if (architecture.module_contracts === null)
        notes.push(
          'No module contracts are declared: the devs will implement from their tasks and report what is missing.',
        );
      const unassigned = backlog.tasks
        .filter((task) => task.module === undefined && !done.has(task.id))
        .map((task) => task.id);
      if (unassigned.length > 0)
        notes.push(
          `Tasks without a module (no dev will see them as theirs): ${unassigned.join(', ')}.`,
        );
      const offered = outcome.offered
        .map((handoff) => `${handoff.to_agent} (${handoff.id})`)
        .join(', ');
      const already =
        outcome.alreadyOffered.length > 0
          ? ` Already offered before: ${outcome.alreadyOffered.join(', ')}.`
          : '';
      return {
        ok: true,
        result:
          `Offered: ${offered || '(none new)'}.${already} The person accepts them to start the devs. ${notes.join(' ')}`.trim(),
      };
    },
  });
}
