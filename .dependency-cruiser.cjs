// The "may import" table of docs/architecture.md, as rules a tool checks (`npm run lint`, run by .ci/run).
// Each area lists the areas it may import; any other import between Forja's areas is a violation. Tests and
// test support (`*.test.ts`, `testing/`, `test-support/`) may reach across areas; production code never imports them.

/** Forja's areas: name → path pattern (relative to the repository). */
const areas = {
  domain: '^src/domain/',
  harness: '^src/harness/',
  store: '^src/store/',
  gateway: '^src/gateway/',
  agents: '^src/agents/',
  conversation: '^src/conversation/',
  memory: '^src/memory/',
  workspace: '^src/workspace/',
  http: '^src/http/',
  cli: '^src/cli/',
  config: '^src/config/',
  accounts: '^src/accounts/',
  lib: '^src/lib/',
  telemetry: '^src/telemetry/',
};

/**
 * The table: an area may import itself and these. "gateway interface" = the gateway's public index only;
 * `lib` (generic helpers that know nothing of Forja) may be imported by every area.
 */
const mayImport = {
  domain: ['lib'],
  harness: ['domain', 'lib', 'noFollowFiles'],
  store: ['domain', 'lib'],
  gateway: ['domain', 'store', 'lib'],
  agents: ['domain', 'harness', 'gatewayInterface', 'store', 'lib', 'telemetryInterface'],
  conversation: [
    'agents',
    'domain',
    'harness',
    'gatewayInterface',
    'memoryInterface',
    'store',
    'lib',
    'telemetryInterface',
  ],
  memory: ['domain', 'store', 'gatewayInterface', 'lib'],
  workspace: ['domain', 'lib'],
  http: Object.keys(areas).filter((area) => area !== 'http' && area !== 'cli'),
  cli: Object.keys(areas).filter((area) => area !== 'cli'),
  config: [],
  accounts: [],
  lib: [],
  telemetry: ['gatewayInterface', 'lib'],
};

/**
 * Surfaces an area may import types from, never values (`import type`): the values behind them are injected
 * through the area's `*-dependencies.ts` and wired in src/composition.ts (ADR 0235).
 */
const mayImportTypesOf = {
  agents: ['workspaceInterface', 'memoryInterface'],
  conversation: ['workspaceInterface'],
};

/** Narrow surfaces an area may use without taking the whole of another. */
const surfaces = {
  gatewayInterface:
    '^src/gateway/(index|model-gateway|consume-stream)\\.ts$|^src/gateway/embeddings/(index|embedding-gateway|embedding-provider)\\.ts$|^src/gateway/metering/',
  memoryInterface: '^src/memory/index\\.ts$',
  workspaceInterface: '^src/workspace/index\\.ts$',
  telemetryInterface: '^src/telemetry/index\\.ts$',
  // The one primitive that reads a file of a repository without following a link (ADR 0300): the harness's
  // instruction-file readers read through it, and only they (`harness-reads-files-only-in-its-readers`).
  noFollowFiles: '^src/workspace/files/beneath\\.ts$',
};

const testCode = '(\\.test\\.ts$|/testing/|/test-support/|/__fixtures__/)';

/** Areas other folders reach only through their public `index.ts` (what the rest of Forja may use of them). */
const publicIndexes = {
  agents: '^src/agents/index\\.ts$',
  conversation: '^src/conversation/index\\.ts$',
};

const patternOf = (name) => areas[name] ?? surfaces[name];

function allowedPattern(area) {
  return [areas[area], ...mayImport[area], ...(mayImportTypesOf[area] ?? [])]
    .map((name) => (name === areas[area] ? name : patternOf(name)))
    .join('|');
}

const layerRules = Object.keys(areas).map((area) => ({
  name: `${area}-may-import`,
  comment: `${area} may import only: ${mayImport[area].join(', ') || 'nothing of Forja'}${mayImportTypesOf[area] ? `; types only of ${mayImportTypesOf[area].join(', ')}` : ''} (docs/architecture.md)`,
  severity: 'error',
  from: { path: areas[area], pathNot: testCode },
  to: { path: '^src/', pathNot: `${allowedPattern(area)}|^src/composition\\.ts$` },
}));

const typeOnlyRules = Object.entries(mayImportTypesOf).map(([area, names]) => ({
  name: `${area}-imports-only-types-of`,
  comment: `${area} imports only types of ${names.join(', ')}; the values are injected (ADR 0235)`,
  severity: 'error',
  from: { path: areas[area], pathNot: testCode },
  to: { path: names.map(patternOf).join('|'), dependencyTypesNot: ['type-only'] },
}));

const publicIndexRules = Object.entries(publicIndexes).map(([area, index]) => ({
  name: `${area}-only-through-its-index`,
  comment: `other folders import ${area} only through src/${area}/index.ts (docs/architecture.md)`,
  severity: 'error',
  from: { path: '^(src|bin)/', pathNot: `${areas[area]}|${testCode}` },
  to: { path: areas[area], pathNot: index },
}));

/**
 * Code that must do no I/O (docs/architecture.md: the domain holds "pure rules, no I/O", `src/lib` helpers "do no
 * I/O", the harness's assembly is pure): what each may import besides Forja's own files. Anything else — a node
 * built-in, an npm package, a module that does not resolve — fails. Matched on what the import resolves to, so
 * `node:fs/promises`, `fs` and `hono/cookie` are all caught (dependency-cruiser drops the `node:` prefix; npm
 * packages resolve to a path under node_modules, which stays in the graph unfollowed).
 * - `buffer`: the only built-in pure code uses (UTF-8 byte counts of the tokenizers and instruction paths).
 *   No `crypto` either: pure rules take ids and the clock as arguments, so they stay deterministic.
 * - zod: the domain's schemas. `ignore` (gitignore-rules.ts) and `gpt-tokenizer` (bpe-tokenizer.ts) are pure
 *   functions over strings the harness uses.
 * The harness files that read instruction files from the workspace are the harness's I/O and are named here.
 */
const pureCoreModules = ['buffer'];
const harnessInstructionFileReaders =
  '^src/harness/(discover-instruction-files|instruction-files|instruction-freshness|list-git-files|read-instruction-file|walk-workspace)\\.ts$';
const pureCode = {
  domain: { path: areas.domain, packages: ['zod'] },
  lib: { path: areas.lib, packages: [] },
  harness: {
    path: areas.harness,
    except: harnessInstructionFileReaders,
    packages: ['ignore', 'gpt-tokenizer'],
  },
};

const escapeForPattern = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const pureCodeRules = Object.entries(pureCode).map(([area, { path, except, packages }]) => ({
  name: `${area}-has-no-io`,
  comment: `${area}${except ? ' (but for its instruction-file readers)' : ''} is pure: besides Forja's own files it imports only ${[...pureCoreModules.map((name) => `node:${name}`), ...packages].join(', ')}`,
  severity: 'error',
  from: { path, pathNot: except ? `${testCode}|${except}` : testCode },
  to: {
    pathNot: [
      '^src/',
      ...pureCoreModules.map((name) => `^${escapeForPattern(name)}$`),
      ...packages.map((name) => `(^|/)node_modules/${escapeForPattern(name)}/`),
    ].join('|'),
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    ...typeOnlyRules,
    ...publicIndexRules,
    ...pureCodeRules,
    {
      name: 'harness-reads-files-only-in-its-readers',
      comment:
        "only the harness's instruction-file readers use the no-follow file primitive; the rest of the harness is pure",
      severity: 'error',
      from: { path: areas.harness, pathNot: `${testCode}|${harnessInstructionFileReaders}` },
      to: { path: surfaces.noFollowFiles },
    },
    {
      name: 'only-composition-imports-composition',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(cli|testing)/|${testCode}` },
      to: { path: '^src/composition\\.ts$' },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'production code never imports tests or test support',
      severity: 'error',
      from: { path: '^(src|bin)/', pathNot: testCode },
      to: { path: `${testCode}|^src/testing/` },
    },
    {
      name: 'web-talks-to-the-api-only',
      comment:
        'web/ reaches the server only over HTTP and the shared contract, src/domain/contract/index.ts (ADR 0400)',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(src|bench|bin)/', pathNot: '^src/domain/contract/index\\.ts$' },
    },
    {
      name: 'no-runtime-cycles',
      severity: 'error',
      from: { path: '^src/' },
      comment:
        'a cycle of imports that are all evaluated at run time (a cycle through `import type` is harmless)',
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stays in the graph, unfollowed: an import of a package must be seen to be refused.
    exclude: { path: '^(web/dist|bench/results)' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js'],
      // Packages that publish only an `exports` map (hono/cookie, gpt-tokenizer/encoding/…) resolve as Node does.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
