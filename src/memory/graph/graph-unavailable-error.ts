/**
 * The graph cannot be reached or used right now (connection lost, schema missing, lock timeout). The
 * projector treats it as "stop the whole cycle and retry later", never as a fault of the row it was writing.
 */
export class GraphUnavailableError extends Error {
  override readonly name = 'GraphUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
