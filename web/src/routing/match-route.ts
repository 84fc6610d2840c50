/** The pages of the app, read from the path. */
export type Route =
  | { page: 'projects' }
  | { page: 'project'; projectId: string }
  | { page: 'session'; sessionId: string }
  | { page: 'not-found'; path: string };

export function matchRoute(path: string): Route {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (trimmed === '/' || trimmed === '/projects') return { page: 'projects' };
  const project = /^\/projects\/([^/]+)$/.exec(trimmed);
  if (project) return { page: 'project', projectId: decodeURIComponent(project[1]!) };
  const session = /^\/sessions\/([^/]+)$/.exec(trimmed);
  if (session) return { page: 'session', sessionId: decodeURIComponent(session[1]!) };
  return { page: 'not-found', path };
}

export const projectPath = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;
export const sessionPath = (sessionId: string) => `/sessions/${encodeURIComponent(sessionId)}`;
