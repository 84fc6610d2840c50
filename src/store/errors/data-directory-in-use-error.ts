/** Another live process holds the embedded data directory. */
export class DataDirectoryInUseError extends Error {
  override readonly name = 'DataDirectoryInUseError';
  readonly dataDirectory: string;
  readonly holderProcessId: number | null;

  constructor(dataDirectory: string, holderProcessId: number | null) {
    super(
      `The data directory ${dataDirectory} is in use by another Forja process` +
        (holderProcessId === null ? ' (its pid is not known)' : ` (pid ${holderProcessId})`) +
        '. Stop it first, or set FORJA_DATA_DIR to another directory, or DATABASE_URL to a PostgreSQL server that several processes can share.',
    );
    this.dataDirectory = dataDirectory;
    this.holderProcessId = holderProcessId;
  }
}
