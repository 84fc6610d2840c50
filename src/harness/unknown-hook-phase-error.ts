/** Thrown when hooks are registered or run for a phase that does not exist. */
export class UnknownHookPhaseError extends Error {
  override readonly name = 'UnknownHookPhaseError';
  readonly phase: string;

  constructor(phase: string, knownPhases: readonly string[]) {
    super(`unknown hook phase '${phase}' (expected one of: ${knownPhases.join(', ')})`);
    this.phase = phase;
  }
}
