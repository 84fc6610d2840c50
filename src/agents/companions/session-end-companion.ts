import type { SessionEndTrigger } from './companion-dependencies.ts';

/**
 * An agent that runs after a session ends (Psicólogo, Anamnese), behind its own flag, read at every run.
 * `run` never throws for expected failures; what it did is for the log.
 */
export interface SessionEndCompanion {
  readonly name: string;
  enabled(): boolean;
  run(trigger: SessionEndTrigger): Promise<{ status: string; reason?: string }>;
}
