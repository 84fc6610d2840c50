/**
 * The scripted model of the whole production line: Criativo, the PO, the Arquiteto (whose first contracts
 * are refused, then corrected) and two dev agents. The production-line test plays it (`PRODUCTION_LINE`), and
 * `examples/production-line-demo.json` is exactly that script (a test keeps them equal). Plain data in the
 * scripted model's file format, so conversation code never imports the providers.
 */
type ScriptTurn = {
  agent: string;
  text?: string;
  tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** What the call must carry (the scripted model fails it otherwise): the line's hand-offs reach each model. */
  expect?: { system?: string[]; messages?: string[]; tools?: string[] };
};
export const BRIEF = {
  title: 'Padaria do amanhecer',
  summary: 'Pão fresco por assinatura, entregue de madrugada.',
  problem: 'Quem acorda cedo não acha pão fresco.',
  audience: 'Moradores do bairro',
  goals: ['Entregar antes das 6h'],
};
export const MAP = {
  version: 1,
  modules: [
    {
      name: 'catalogo',
      stack: 'TypeScript',
      responsibility: 'Os pães à venda e seus preços',
      dependsOn: [],
    },
    {
      name: 'pedidos',
      stack: 'TypeScript',
      responsibility: 'As assinaturas e os pedidos do dia',
      dependsOn: ['catalogo'],
      check: "! grep -n '^ \\+export ' src/pedidos.ts",
    },
  ],
};
/** What the default check of catalogo (TypeScript, no tsconfig.json) does not verify, and the check that does. */
export const CATALOGO_CHECK_BLOCK =
  'o check padrão de catalogo (npx tsc --noEmit) pula sem tsconfig.json: nada verifica que catalogo expõe listarPaes';
export const CATALOGO_CHECK = "grep -n 'export function listarPaes' src/catalogo.ts";
/** The map's second version, declared by the Arquiteto when dev:catalogo blocks on its check. */
export const MAP_V2 = {
  ...MAP,
  version: 2,
  modules: MAP.modules.map((module) =>
    module.name === 'catalogo' ? { ...module, check: CATALOGO_CHECK } : module,
  ),
};
export const WRONG_CONTRACTS = {
  version: 1,
  contratos: [
    { modulo: 'catalogo', expoe: [{ tipo: 'classe', assinatura: 'Pao' }] },
    { modulo: 'estoque', expoe: [{ tipo: 'funcao', assinatura: 'baixar(id)' }] },
  ],
};
export const CONTRACTS = {
  version: 1,
  contratos: [
    {
      modulo: 'catalogo',
      expoe: [
        { tipo: 'funcao', assinatura: 'listarPaes(): Pao[]', descricao: 'Os pães à venda hoje' },
        { tipo: 'dado', assinatura: 'Pao { id: string; nome: string; precoCentavos: number }' },
      ],
    },
    {
      modulo: 'pedidos',
      expoe: [
        { tipo: 'rota', assinatura: 'POST /pedidos { paoId, quantidade } -> 201 { pedidoId }' },
      ],
    },
  ],
};
/**
 * The contracts' second version, declared by the Arquiteto when dev:catalogo blocks: pedidos announces
 * PedidoCriado, and catalogo's listarPaes now lists only the breads still in stock (which pedidos consumes).
 */
export const CONTRACTS_V2 = {
  version: 2,
  contratos: [
    {
      modulo: 'catalogo',
      expoe: [
        {
          ...CONTRACTS.contratos[0]!.expoe[0]!,
          descricao: 'Os pães à venda hoje, só os que ainda têm estoque',
        },
        CONTRACTS.contratos[0]!.expoe[1]!,
      ],
    },
    {
      modulo: 'pedidos',
      expoe: [
        ...CONTRACTS.contratos[1]!.expoe,
        {
          tipo: 'evento',
          assinatura: 'PedidoCriado { pedidoId: string; paoId: string }',
          descricao: 'Emitido a cada pedido criado',
        },
      ],
    },
  ],
};
export const CATALOGO_CODE =
  "export interface Pao { id: string; nome: string; precoCentavos: number }\n\nexport function listarPaes(): Pao[] {\n  return [{ id: 'frances', nome: 'Pão francês', precoCentavos: 90 }];\n}\n";
export const PEDIDOS_CODE =
  "import { listarPaes } from '../catalogo';\n\nexport function pedir(paoId: string, quantidade: number) {\n  export const pao = listarPaes().find((item) => item.id === paoId);\n  return { paoId: pao?.id, quantidade };\n}\n";

/** PEDIDOS_CODE without the `export` inside the function, which pedidos' check refuses. */
export const PEDIDOS_CODE_FIXED = PEDIDOS_CODE.replace('  export const pao', '  const pao');

/**
 * The line's third task, in pedidos, whose work AT-002's code already does (`pedir` returns the quantity): the
 * line's dev:pedidos finishes it against AT-002's commit (ADR 0341).
 */
export const QUANTITY_TASK = {
  id: 'AT-003',
  story_id: 'HS-002',
  title: 'Guardar a quantidade',
  description: 'O pedido guarda a quantidade pedida',
  acceptance_criteria: ['o pedido devolve a quantidade'],
};

/** The PO's backlog: one epic, two stories, a task each (catalogo's AT-001, pedidos' AT-002). */
const BACKLOG = {
  epics: [
    {
      id: 'EP-001',
      title: 'Assinatura de pão',
      description: 'A pessoa assina e recebe pão cedo',
    },
  ],
  stories: [
    {
      id: 'HS-001',
      epic_id: 'EP-001',
      title: 'Ver os pães',
      description: 'A pessoa vê o catálogo',
      acceptance_criteria: ['lista os pães com preço'],
    },
    {
      id: 'HS-002',
      epic_id: 'EP-001',
      title: 'Assinar',
      description: 'A pessoa faz um pedido',
      acceptance_criteria: ['o pedido guarda o pão e a quantidade'],
    },
  ],
  tasks: [
    {
      id: 'AT-001',
      story_id: 'HS-001',
      title: 'Listar pães',
      description: 'Função que lista os pães',
      acceptance_criteria: ['devolve os pães do dia'],
    },
    {
      id: 'AT-002',
      story_id: 'HS-002',
      title: 'Criar pedido',
      description: 'Função que cria o pedido',
      acceptance_criteria: ['usa o pão do catálogo'],
    },
  ],
};

/** The Arquiteto's assignment of the backlog's tasks to the map's modules. */
const ASSIGNMENTS = [
  { task_id: 'AT-001', module: 'catalogo' },
  { task_id: 'AT-002', module: 'pedidos' },
];

/**
 * The line up to the Arquiteto's handoff: Criativo with the person (two messages: the first answer records a
 * rule), the brief, the PO's backlog.
 */
export const UP_TO_ARQUITETO: ScriptTurn[] = [
  {
    agent: 'criativo',
    // It speaks and records in one answer: the turn ends there (the stop rule, ADR 0380).
    text: 'Anotei a regra. Quem vai receber o pão?',
    tool_calls: [
      {
        name: 'emit_artifact',
        arguments: {
          type: 'business_rule',
          data: { title: 'Entrega cedo', statement: 'Toda entrega acontece antes das 6h.' },
          origin: [3],
        },
      },
    ],
    expect: {
      system: ['Você é o Criativo', 'mudar uma regra já registrada, use revise_rule'],
      tools: ['emit_artifact', 'revise_rule'],
    },
  },
  {
    agent: 'criativo',
    text: 'Anotado. Quando quiser, aperte "Estou pronto para produzir".',
    expect: {
      system: ['Entrega cedo: Toda entrega acontece antes das 6h.'],
      messages: [
        'assistant: Anotei a regra. Quem vai receber o pão?',
        'emit_artifact(',
        'tool: Recorded business_rule.',
        'user: [#',
      ],
    },
  },
  {
    agent: 'criativo',
    text: JSON.stringify(BRIEF),
    expect: {
      system: ['Consolide o product brief', '): Entrega cedo'],
      messages: ['assistant: Anotado.'],
    },
  },
  {
    agent: 'po',
    expect: {
      system: ['## Product brief: Padaria do amanhecer', 'Entrega cedo'],
      tools: ['declare_backlog', 'hand_off_to_arquiteto'],
    },
    text: 'Escrevo o backlog.',
    tool_calls: [
      {
        name: 'declare_backlog',
        arguments: BACKLOG,
      },
    ],
  },
  { agent: 'po', text: '', tool_calls: [{ name: 'hand_off_to_arquiteto', arguments: {} }] },
  { agent: 'po', text: 'Backlog pronto: aceite o handoff para o Arquiteto.' },
];

export const ARQUITETO: ScriptTurn[] = [
  {
    agent: 'arquiteto',
    expect: {
      system: ['AT-001', 'AT-002'],
      tools: ['declare_module_map', 'declare_module_contracts', 'hand_off_to_devs'],
    },
    tool_calls: [
      {
        name: 'declare_project_image',
        arguments: { version: 1, summary: 'Um site de assinatura de pão com dois módulos.' },
      },
    ],
  },
  { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: MAP }] },
  {
    agent: 'arquiteto',
    tool_calls: [
      {
        name: 'route_modules_to_infra',
        arguments: {
          version: 1,
          routes: [
            { module: 'catalogo', infra: 'biblioteca' },
            { module: 'pedidos', infra: 'serviço HTTP' },
          ],
        },
      },
    ],
  },
  {
    agent: 'arquiteto',
    tool_calls: [
      {
        name: 'declare_c4_diagram',
        arguments: {
          version: 1,
          system: { name: 'Padaria', description: 'Pão por assinatura' },
          actors: [{ id: 'cliente', kind: 'person', name: 'Cliente' }],
          relations: [{ from: 'cliente', to: 'pedidos', description: 'assina' }],
        },
      },
    ],
  },
  {
    agent: 'arquiteto',
    tool_calls: [{ name: 'declare_module_contracts', arguments: WRONG_CONTRACTS }],
  },
  {
    agent: 'arquiteto',
    expect: { messages: ['declare_module_contracts(', 'tool: ', 'unknown tipo "classe"'] },
    text: 'Corrijo os contratos.',
    tool_calls: [{ name: 'declare_module_contracts', arguments: CONTRACTS }],
  },
  {
    agent: 'arquiteto',
    tool_calls: [
      {
        name: 'assign_tasks_to_modules',
        arguments: { assignments: ASSIGNMENTS },
      },
    ],
  },
  { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
  { agent: 'arquiteto', text: 'Arquitetura declarada: aceite os handoffs dos devs.' },
];

export const DEVS: ScriptTurn[] = [
  { agent: 'dev:catalogo', tool_calls: [{ name: 'listar_contratos_de_modulos', arguments: {} }] },
  {
    agent: 'dev:catalogo',
    tool_calls: [
      {
        name: 'report_blocked',
        arguments: {
          kind: 'interface',
          modulo: 'pedidos',
          falta: 'evento PedidoCriado(pedidoId, paoId) para baixar o estoque do dia',
        },
      },
    ],
  },
  { agent: 'dev:catalogo', text: 'Bloqueado: falta o evento PedidoCriado de pedidos.' },
  // The block reaches the Arquiteto's lane, which declares the contracts' version 2 …
  {
    agent: 'arquiteto',
    expect: {
      system: [
        'Bloqueios abertos',
        'dev:catalogo (módulo catalogo',
        'bloqueado em pedidos: falta evento PedidoCriado',
      ],
      tools: ['answer_block'],
    },
    tool_calls: [{ name: 'declare_module_contracts', arguments: CONTRACTS_V2 }],
  },
  { agent: 'arquiteto', text: 'Contratos na versão 2: pedidos expõe PedidoCriado.' },
  // … and dev:catalogo resumes, told what changed, reads version 2 and finishes.
  {
    agent: 'dev:catalogo',
    expect: { system: ['Desbloqueado', 'contratos na versão 2'] },
    tool_calls: [{ name: 'listar_contratos_de_modulos', arguments: {} }],
  },
  {
    agent: 'dev:catalogo',
    expect: { messages: ['module contracts: version 2'] },
    tool_calls: [
      { name: 'write_file', arguments: { path: 'src/catalogo.ts', content: CATALOGO_CODE } },
    ],
  },
  // Its code written, dev:catalogo sees its check verifies nothing: a block of kind check …
  {
    agent: 'dev:catalogo',
    tool_calls: [
      {
        name: 'report_blocked',
        arguments: { kind: 'check', modulo: 'catalogo', falta: CATALOGO_CHECK_BLOCK },
      },
    ],
  },
  {
    agent: 'dev:catalogo',
    expect: {
      messages: ['Recorded: blocked (check) on catalogo', 'new version of the module map'],
    },
    text: 'Bloqueado: o check de catalogo não verifica nada.',
  },
  // … which the Arquiteto resolves with the map's version 2, catalogo's check fixed …
  {
    agent: 'arquiteto',
    expect: {
      system: [
        'dev:catalogo (módulo catalogo',
        'tipo check) está bloqueado em catalogo: o check do módulo catalogo está quebrado pelo mapa',
        'resolva com declare_module_map',
      ],
    },
    tool_calls: [{ name: 'declare_module_map', arguments: MAP_V2 }],
  },
  { agent: 'arquiteto', text: 'Mapa na versão 2: o check de catalogo verifica listarPaes.' },
  // … and dev:catalogo, unblocked with the new check, finishes.
  {
    agent: 'dev:catalogo',
    expect: {
      system: [
        'Desbloqueado',
        'mapa de módulos na versão 2',
        `Check (finish_task o roda, declarado no mapa): ${CATALOGO_CHECK}`,
      ],
    },
    tool_calls: [
      { name: 'finish_task', arguments: { task_id: 'AT-001', resumo: 'Lista os pães do dia' } },
    ],
  },
  {
    agent: 'dev:catalogo',
    expect: { messages: ['passed (exit code 0'] },
    text: 'AT-001 feita no branch dev-catalogo.',
  },
  // dev:pedidos reads catalogo's contract and waits for its code rather than simulate it …
  {
    agent: 'dev:pedidos',
    expect: {
      system: ['### AT-002 — Criar pedido', `### AT-003 — ${QUANTITY_TASK.title}`],
    },
    tool_calls: [{ name: 'listar_contratos_de_modulos', arguments: { modulo: 'catalogo' } }],
  },
  {
    agent: 'dev:pedidos',
    expect: {
      messages: ['listar_contratos_de_modulos(', 'listarPaes(): Pao[]'],
      tools: ['read_file', 'write_file', 'finish_task'],
    },
    text: 'Espero o código de catalogo chegar ao meu worktree: uso listarPaes de verdade, sem simulá-la.',
  },
  // … contracts v2 changed pedidos' own contract and catalogo's, which pedidos consumes: its lane is told what …
  {
    agent: 'dev:pedidos',
    expect: {
      system: [
        'Mudou desde o seu último turno',
        'pedidos (seu módulo), adicionado: [evento] PedidoCriado { pedidoId: string; paoId: string } — Emitido a cada pedido criado',
        'catalogo (você consome), alterado: agora [funcao] listarPaes(): Pao[] — Os pães à venda hoje, só os que ainda têm estoque (antes: [funcao] listarPaes(): Pao[] — Os pães à venda hoje)',
      ],
    },
    text: 'Vi o evento PedidoCriado nos contratos v2: pedidos passa a emiti-lo.',
  },
  // … and once catalogo is merged into dev, dev is merged into pedidos' worktree and its dev is told (ADR 0343).
  {
    agent: 'dev:pedidos',
    expect: {
      system: [
        'Dependências integradas:',
        'O código de catalogo (que o seu módulo usa) foi integrado em dev, e dev foi mesclado no seu branch dev-pedidos',
        'esse código está agora no seu worktree',
      ],
    },
    tool_calls: [{ name: 'read_file', arguments: { path: 'src/catalogo.ts' } }],
  },
  {
    agent: 'dev:pedidos',
    expect: { messages: ['read_file(', 'export function listarPaes(): Pao[]'] },
    tool_calls: [
      { name: 'write_file', arguments: { path: 'src/pedidos.ts', content: PEDIDOS_CODE } },
    ],
  },
  // The first finish_task is refused by pedidos' check (an export inside a function); the fixed code passes.
  {
    agent: 'dev:pedidos',
    tool_calls: [
      {
        name: 'finish_task',
        arguments: { task_id: 'AT-002', resumo: 'Cria o pedido com o pão de listarPaes' },
      },
    ],
  },
  {
    agent: 'dev:pedidos',
    expect: { messages: ['failed with exit code 1', '4:  export const pao'] },
    tool_calls: [
      { name: 'write_file', arguments: { path: 'src/pedidos.ts', content: PEDIDOS_CODE_FIXED } },
    ],
  },
  {
    agent: 'dev:pedidos',
    tool_calls: [
      {
        name: 'finish_task',
        arguments: { task_id: 'AT-002', resumo: 'Cria o pedido com o pão de listarPaes' },
      },
    ],
  },
  // AT-003's work (the order keeps its quantity) is in AT-002's commit: finished against it (ADR 0341).
  {
    agent: 'dev:pedidos',
    expect: { messages: ['passed (exit code 0', 'Committed '] },
    tool_calls: [
      {
        name: 'finish_task',
        arguments: { task_id: 'AT-003', resumo: 'O pedido guarda a quantidade pedida' },
      },
    ],
  },
  {
    agent: 'dev:pedidos',
    expect: {
      messages: [
        'Nothing new to commit: the work of AT-003 is already in',
        '(committed when AT-002 finished); AT-003 is recorded as finished against that commit',
      ],
    },
    text: 'AT-002 e AT-003 feitas no branch dev-pedidos.',
  },
];

/**
 * `turns` with QUANTITY_TASK in the PO's backlog and assigned to pedidos by the Arquiteto. Other tests play
 * UP_TO_ARQUITETO and ARQUITETO with the two tasks alone, so pedidos merges once AT-002 is finished.
 */
function withQuantityTask(turns: ScriptTurn[]): ScriptTurn[] {
  const backlog = { ...BACKLOG, tasks: [...BACKLOG.tasks, QUANTITY_TASK] };
  const assignments = [...ASSIGNMENTS, { task_id: QUANTITY_TASK.id, module: 'pedidos' }];
  return turns.map((turn) => {
    const call = turn.tool_calls?.[0];
    if (call?.name === 'declare_backlog')
      return { ...turn, tool_calls: [{ name: call.name, arguments: backlog }] };
    if (call?.name === 'assign_tasks_to_modules')
      return { ...turn, tool_calls: [{ name: call.name, arguments: { assignments } }] };
    return turn;
  });
}

/**
 * The whole line, as the production-line test and `examples/production-line-demo.json` play it: up to the
 * Arquiteto's handoff with QUANTITY_TASK too, then the devs.
 */
export const PRODUCTION_LINE: ScriptTurn[] = [
  ...withQuantityTask([...UP_TO_ARQUITETO, ...ARQUITETO]),
  ...DEVS,
];
