import {
  c4DiagramSchema,
  moduleContractsSchema,
  moduleMapSchema,
  moduleRoutingSchema,
  projectImageSchema,
  validateC4DiagramDeclaration,
  validateDeclaration,
  validateModuleContractsDeclaration,
  validateModuleMapDeclaration,
  validateModuleRoutingDeclaration,
  type C4Diagram,
  type ModuleContracts,
  type ModuleMap,
  type ModuleRouting,
  type ProjectImage,
} from '../../domain/architecture/index.ts';
import type { AgentTool } from '../runtime/agent-tool.ts';
import type { ArquitetoDependencies } from './arquiteto-dependencies.ts';
import { declarationTool } from './declaration-tool.ts';

const current =
  'Each call carries the WHOLE declaration with a `version`; the highest version is current and replaces the previous one.';

/** The Arquiteto's five declare tools, in kickoff order (contracts are step 5). */
export function declareTools(dependencies: ArquitetoDependencies): AgentTool[] {
  return [
    declarationTool<ProjectImage>(dependencies, {
      name: 'declare_project_image',
      description: `Declare the project image: {version, summary} — what the project is, its shape and main choices. ${current}`,
      type: 'project_image',
      schema: projectImageSchema,
      validate: (args) =>
        validateDeclaration(projectImageSchema, args, {
          toolName: 'declare_project_image',
          fieldOrder: ['version', 'summary'],
        }),
      summarize: (image) => `${image.summary.length} characters`,
    }),
    declarationTool<ModuleMap>(dependencies, {
      name: 'declare_module_map',
      description: `Declare the module map: {version, modules: [{name, stack, responsibility, dependsOn: [names], directory?: 'packages/x'}]}. Acyclic; dependsOn names modules of this map. ${current}`,
      type: 'module_map',
      schema: moduleMapSchema,
      validate: (args) => validateModuleMapDeclaration(args),
      summarize: (map) =>
        `${map.modules.length} module(s): ${map.modules.map((module) => module.name).join(', ')}`,
    }),
    declarationTool<ModuleRouting>(dependencies, {
      name: 'route_modules_to_infra',
      description: `Declare where modules run: {version, routes: [{module, infra, notes?}]}, modules of the current map. ${current}`,
      type: 'module_routing',
      schema: moduleRoutingSchema,
      validate: (args, architecture) =>
        validateModuleRoutingDeclaration(args, architecture.module_map?.data ?? null),
      summarize: (routing) =>
        routing.routes.map((route) => `${route.module} → ${route.infra}`).join(', '),
    }),
    declarationTool<C4Diagram>(dependencies, {
      name: 'declare_c4_diagram',
      description: `Declare the C4 context: {version, system: {name, description}, actors: [{id, kind: person|external_system, name}], relations: [{from, to, description}]}. Endpoints: actor ids, "system" or modules of the map; never module to module (that is dependsOn). ${current}`,
      type: 'c4_diagram',
      schema: c4DiagramSchema,
      validate: (args, architecture) =>
        validateC4DiagramDeclaration(args, architecture.module_map?.data ?? null),
      summarize: (diagram) =>
        `${diagram.actors.length} actor(s), ${diagram.relations.length} relation(s)`,
    }),
    declarationTool<ModuleContracts>(dependencies, {
      name: 'declare_module_contracts',
      description:
        'Declare what each module EXPOSES: {version, contratos: [{modulo, expoe: [{tipo: funcao|rota|evento|dado, assinatura (≤ 300 chars), descricao?}]}]}, ' +
        `1 to 40 items per module, each module of the current map at most once. What a module consumes is NOT written: it comes from dependsOn. ${current}`,
      type: 'module_contracts',
      schema: moduleContractsSchema,
      validate: (args, architecture) =>
        validateModuleContractsDeclaration(args, architecture.module_map?.data ?? null),
      summarize: (contracts) =>
        contracts.contratos
          .map((contract) => `${contract.modulo} (${contract.expoe.length} item(s))`)
          .join(', '),
    }),
  ];
}
