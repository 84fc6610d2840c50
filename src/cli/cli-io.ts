/** What a command reads and writes: the process's streams and environment, or a test's. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Reads all of stdin (`forja user add` takes the password there). */
  stdin?: () => Promise<string>;
  stdinIsTerminal?: boolean;
}
