/** The embedded data directory cannot be created or written (a path under /proc, a file in the way, no permission). */
export class DataDirectoryUnusableError extends Error {
  override readonly name = 'DataDirectoryUnusableError';
  readonly dataDirectory: string;

  constructor(dataDirectory: string, reason: string) {
    super(
      `FORJA_DATA_DIR=${dataDirectory} cannot be used as the data directory: ${reason}. Set FORJA_DATA_DIR to a directory Forja may create and write.`,
    );
    this.dataDirectory = dataDirectory;
  }
}
