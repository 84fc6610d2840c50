export {
  assessCommand,
  COMMAND_RISK_RULES,
  type CommandRisk,
  type CommandRiskRule,
  type CommandRiskVerdict,
} from './command-risk.ts';
export {
  DEFAULT_SANDBOX_LIMITS,
  describeLimits,
  limitCommand,
  limitNotes,
  readSandboxLimits,
  SANDBOX_LIMIT_VARIABLES,
  type SandboxLimits,
} from './sandbox-limits.ts';
