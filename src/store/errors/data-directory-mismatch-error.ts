/**
 * This process's data directory is not the one the database's projects keep their repositories in (ADR 0316):
 * serving would split a project's repository between two directories.
 */
export class DataDirectoryMismatchError extends Error {
  override readonly name = 'DataDirectoryMismatchError';
}
