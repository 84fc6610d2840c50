import { z } from 'zod';
import { listModuleContractsForDev } from '../../domain/architecture/index.ts';
import { type Queryable, readProjectArchitecture } from '../../store/index.ts';
import { type AgentTool, defineTool } from '../runtime/agent-tool.ts';

/**
 * `listar_contratos_de_modulos` (direct), exactly as record ADR 0200 says: no parameters — the schema is an
 * empty object that is not strict, so an argument the model sends is stripped, ignored and said to be
 * ignored; the project comes from the loop's route and the module from the loop context, never from the
 * model. The restrained read itself is `listModuleContractsForDev`.
 */
export function listModuleContractsTool(dependencies: { database: Queryable }): AgentTool {
  return defineTool({
    name: 'listar_contratos_de_modulos',
    description:
      'Read the module contracts the Arquiteto declared: your module and the modules it consumes in full, the others by name. ' +
      "No arguments: your module is known. This is where another module's interface is read — never in its worktree.",
    parameters: z.object({}),
    mode: 'direct',
    run: async (_args, context) => {
      const architecture = await readProjectArchitecture(dependencies.database, context.projectId);
      const listing = listModuleContractsForDev({
        module: context.module,
        moduleMap: architecture.module_map?.data ?? null,
        contracts: architecture.module_contracts?.data ?? null,
        argumentsIgnored: context.ignoredArguments,
      });
      return { ok: true, result: listing.text };
    },
  });
}
