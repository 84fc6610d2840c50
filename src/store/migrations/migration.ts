/** One versioned step of the schema. Versions are applied in ascending order, each exactly once. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
