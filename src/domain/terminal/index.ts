export {
  assessCommand,
  COMMAND_RISK_RULES,
  type CommandRisk,
  type CommandRiskRule,
  type CommandRiskVerdict,
} from './command-risk.ts';
