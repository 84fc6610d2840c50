import type { Queryable } from '../database.ts';

/** A remote a project may push its `main` to (ADR 0415). */
export interface ProjectRemote {
  name: string;
  url: string;
  updated_at: string;
}

interface ProjectRemoteRow {
  name: string;
  url: string;
  updated_at: Date;
}

const toRemote = (row: ProjectRemoteRow): ProjectRemote => ({
  name: row.name,
  url: row.url,
  updated_at: row.updated_at.toISOString(),
});

/** Declares the remote `name` of a project, or changes its URL. */
export async function putProjectRemote(
  database: Queryable,
  projectId: string,
  remote: { name: string; url: string },
): Promise<ProjectRemote> {
  const result = await database.query<ProjectRemoteRow>(
    `insert into project_remotes (project_id, name, url) values ($1, $2, $3)
     on conflict (project_id, name) do update set url = excluded.url, updated_at = now()
     returning name, url, updated_at`,
    [projectId, remote.name, remote.url],
  );
  return toRemote(result.rows[0]!);
}

/** The project's remotes, by name. */
export async function listProjectRemotes(
  database: Queryable,
  projectId: string,
): Promise<ProjectRemote[]> {
  const result = await database.query<ProjectRemoteRow>(
    'select name, url, updated_at from project_remotes where project_id = $1 order by name',
    [projectId],
  );
  return result.rows.map(toRemote);
}

export async function findProjectRemote(
  database: Queryable,
  projectId: string,
  name: string,
): Promise<ProjectRemote | null> {
  const result = await database.query<ProjectRemoteRow>(
    'select name, url, updated_at from project_remotes where project_id = $1 and name = $2',
    [projectId, name],
  );
  return result.rows[0] ? toRemote(result.rows[0]) : null;
}

/** Removes a remote; false when the project had none of that name. */
export async function deleteProjectRemote(
  database: Queryable,
  projectId: string,
  name: string,
): Promise<boolean> {
  const result = await database.query(
    'delete from project_remotes where project_id = $1 and name = $2 returning name',
    [projectId, name],
  );
  return result.rows.length > 0;
}
