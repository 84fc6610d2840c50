import type { SessionView } from './session-view.ts';

export const LINE_STAGES = [
  'idea',
  'brief',
  'backlog',
  'architecture',
  'developers',
  'merged',
] as const;
export type LineStage = (typeof LINE_STAGES)[number];

/** Where the session is on the line: the furthest stage its events reached. */
export function lineStage(
  view: Pick<SessionView, 'brief' | 'backlog' | 'moduleMaps' | 'devs' | 'lanes'>,
): LineStage {
  const devLanes = view.lanes.filter((lane) => lane.agent.startsWith('dev:'));
  if (devLanes.length > 0 && devLanes.every((lane) => lane.status === 'done')) return 'merged';
  if (devLanes.length > 0 || view.devs.some((dev) => dev.activeSince !== null)) return 'developers';
  if (view.moduleMaps.length > 0) return 'architecture';
  if (view.backlog.epics.length + view.backlog.stories.length + view.backlog.tasks.length > 0)
    return 'backlog';
  if (view.brief !== null) return 'brief';
  return 'idea';
}
