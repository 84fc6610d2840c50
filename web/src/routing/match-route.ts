/** The pages of the app, read from the path. */
export type Route =
  | { page: 'projects' }
  | { page: 'project'; projectId: string }
  | { page: 'session'; sessionId: string }
  | { page: 'turn-trace'; sessionId: string; turnId: string }
  | { page: 'not-found'; path: string };

export function matchRoute(path: string): Route {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (trimmed === '/' || trimmed === '/projects') return { page: 'projects' };
  const project = /^\/projects\/([^/]+)$/.exec(trimmed);
  if (project) return { page: 'project', projectId: decodeURIComponent(project[1]!) };
  const session = /^\/sessions\/([^/]+)$/.exec(trimmed);
  if (session) return { page: 'session', sessionId: decodeURIComponent(session[1]!) };
  const trace = /^\/sessions\/([^/]+)\/turns\/([^/]+)$/.exec(trimmed);
  if (trace)
    return {
      page: 'turn-trace',
      sessionId: decodeURIComponent(trace[1]!),
      turnId: decodeURIComponent(trace[2]!),
    };
  return { page: 'not-found', path };
}

export const projectPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;
export const sessionPath = (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}`;
export const turnTracePath = (sessionId: string, turnId: string) =>
  `${sessionPath(sessionId)}/turns/${encodeURIComponent(turnId)}`;
