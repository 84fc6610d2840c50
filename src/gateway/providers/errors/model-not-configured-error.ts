/** What is wrong with the model configuration, for callers that branch on it. */
export type ModelConfigurationProblem =
  | 'model-unset'
  | 'model-malformed'
  | 'unknown-provider'
  | 'api-key-missing'
  | 'base-url-invalid'
  | 'agent-endpoint-without-model'
  | 'variable-unknown'
  | 'strict-tools-invalid'
  | 'prompt-cache-invalid';

/**
 * No usable model is configured. The message tells the person exactly which environment variables to
 * set; it never contains their values, since some are secrets.
 */
export class ModelNotConfiguredError extends Error {
  override readonly name: string = 'ModelNotConfiguredError';
  readonly problem: ModelConfigurationProblem;
  /** The environment variables to set to fix it. */
  readonly variables: string[];

  constructor(fields: {
    problem: ModelConfigurationProblem;
    variables: string[];
    message: string;
  }) {
    super(fields.message);
    this.problem = fields.problem;
    this.variables = fields.variables;
  }
}
