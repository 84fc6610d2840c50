import type { LoopAgent } from '../agents/runtime/tool-loop.ts';

/** The agents this process can run, by slug (`criativo`, `po`, `dev:<module>` …). */
export interface AgentCatalog {
  get(slug: string): LoopAgent | null;
  /** The agents that answer the person's messages when they are the most recently activated one. */
  isConversational(slug: string): boolean;
}
