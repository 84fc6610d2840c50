/** Thrown when a phase already has a handler with the same name: a halt must name exactly one handler. */
export class DuplicateHookHandlerError extends Error {
  override readonly name = 'DuplicateHookHandlerError';
  readonly phase: string;
  readonly handlerName: string;

  constructor(phase: string, handlerName: string) {
    super(`hook phase '${phase}' already has a handler named '${handlerName}'`);
    this.phase = phase;
    this.handlerName = handlerName;
  }
}
