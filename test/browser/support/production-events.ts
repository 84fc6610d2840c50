const artifact = (type: string, actor: string, data: unknown) => ({
  type: `artifact.${type}`,
  actor,
  payload: { v: 1, data },
});
const module = (name: string, stack: string, dependsOn: string[]) => ({
  name,
  stack,
  responsibility: `The ${name} of the bakery`,
  dependsOn,
});
const toolCompleted = (agent: string, tool: string, args: unknown) => ({
  type: 'tool.completed',
  actor: agent,
  payload: {
    v: 1,
    agent,
    tool_call_id: `call_${agent}_${tool}`,
    tool,
    args,
    ok: true,
    result: 'Recorded.',
  },
});

/**
 * What the PO, the Arquiteto and the dev agents record (ADR 0010), appended as they would append it, plus an
 * event type nobody knows yet: the page must show the first and survive the second.
 */
export const PRODUCTION_EVENTS = [
  artifact('epic', 'po', {
    id: 'EP-030',
    title: 'Subscriptions',
    description: 'People subscribe to daily bread.',
    acceptance_criteria: [],
    business_rule_refs: [],
  }),
  artifact('story', 'po', {
    id: 'HS-071',
    epic_id: 'EP-030',
    title: 'Subscribe to daily bread',
    description: 'As a neighbour I subscribe once.',
    acceptance_criteria: ['A subscription starts the next day'],
  }),
  artifact('task', 'po', {
    id: 'AT-276',
    story_id: 'HS-071',
    title: 'Subscription form',
    description: 'The form.',
    acceptance_criteria: ['Validates the address'],
    module: 'web',
  }),
  artifact('task', 'po', {
    id: 'AT-277',
    story_id: 'HS-071',
    title: 'Subscriptions route',
    description: 'The route.',
    acceptance_criteria: ['Stores the subscription'],
    module: 'api',
  }),
  artifact('task', 'po', {
    id: 'AT-278',
    story_id: 'HS-071',
    title: 'Delivery schedule',
    description: 'Before 6 a.m.',
    acceptance_criteria: ['Never after 6 a.m.'],
    module: 'api',
  }),
  artifact('module_map', 'arquiteto', {
    version: 1,
    modules: [module('web', 'React', ['api']), module('api', 'Node + Hono', [])],
  }),
  artifact('module_map', 'arquiteto', {
    version: 2,
    modules: [
      module('web', 'React + Vite', ['api', 'auth']),
      module('api', 'Node + Hono', ['db', 'auth']),
      module('auth', 'Node', ['db']),
      module('db', 'PostgreSQL', []),
    ],
  }),
  artifact('module_contracts', 'arquiteto', {
    version: 1,
    contratos: [{ modulo: 'api', expoe: [{ tipo: 'rota', assinatura: 'GET /subscriptions' }] }],
  }),
  artifact('module_contracts', 'arquiteto', {
    version: 2,
    contratos: [
      {
        modulo: 'api',
        expoe: [
          {
            tipo: 'rota',
            assinatura: 'POST /subscriptions {address, plan}',
            descricao: 'Creates a subscription',
          },
          { tipo: 'evento', assinatura: 'subscription.created {id}' },
        ],
      },
      {
        modulo: 'auth',
        expoe: [{ tipo: 'funcao', assinatura: 'checkSession(token): Session | null' }],
      },
      {
        modulo: 'db',
        expoe: [{ tipo: 'dado', assinatura: 'subscriptions(id, address, plan, starts_on)' }],
      },
    ],
  }),
  artifact('project_image', 'arquiteto', {
    version: 1,
    summary: 'A small subscription site for a neighbourhood bakery.',
  }),
  {
    type: 'agent.activated',
    actor: 'system',
    payload: { v: 1, agent: 'dev:api', handoff_id: 'handoff-api' },
  },
  {
    type: 'agent.activated',
    actor: 'system',
    payload: { v: 1, agent: 'dev:web', handoff_id: 'handoff-web' },
  },
  toolCompleted('dev:api', 'finish_task', {
    task_id: 'AT-277',
    summary: 'Subscriptions route with tests',
  }),
  toolCompleted('dev:web', 'report_blocked', {
    modulo: 'auth',
    falta: 'a function to check the session token',
  }),
  {
    type: 'something.from.the.future',
    actor: 'system',
    payload: { v: 9, anything: [1, { deep: null }] },
  },
  { type: 'artifact.module_map', actor: 'arquiteto', payload: null },
];
