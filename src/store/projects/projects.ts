import { randomUUID } from 'node:crypto';
import type { Queryable } from '../database.ts';

export interface Project {
  id: string;
  name: string;
  created_at: string;
}

interface ProjectRow {
  id: string;
  name: string;
  created_at: Date;
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
});

export async function createProject(
  database: Queryable,
  input: { name: string; id?: string },
): Promise<Project> {
  const result = await database.query<ProjectRow>(
    'insert into projects (id, name) values ($1, $2) returning id, name, created_at',
    [input.id ?? randomUUID(), input.name],
  );
  return toProject(result.rows[0]!);
}

export async function findProject(database: Queryable, id: string): Promise<Project | null> {
  const result = await database.query<ProjectRow>(
    'select id, name, created_at from projects where id = $1',
    [id],
  );
  return result.rows[0] ? toProject(result.rows[0]) : null;
}

export async function listProjects(database: Queryable): Promise<Project[]> {
  const result = await database.query<ProjectRow>(
    'select id, name, created_at from projects order by created_at, id',
  );
  return result.rows.map(toProject);
}
