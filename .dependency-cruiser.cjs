// @ts-check
/**
 * Import boundaries of apps/ and libs/, checked by `npm run lint`
 * (`npx depcruise apps libs --config .dependency-cruiser.cjs`). docs/ARCHITECTURE.md
 * ("Import boundaries") lists the same rules for people.
 *
 * Tests are cruised too: a spec is a leaf (nothing imports it), so it can never close a cycle,
 * but test helpers (fakes, contract suites, kits) are imported across folders like any code, and
 * a tangle there costs the same. Tests are only exempt from the module-internals rule below.
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * Folders whose sub-folders are feature modules: a sub-folder that has an index.ts is a module,
 * and its index.ts is its public surface. Add a root here to hold another app to the same rule.
 */
const MODULE_ROOTS = ['apps/control-plane/src'];

/** Tests may wire a module's internals (a service, a fake); the rule is for production code. */
const TEST_FILES = '(^|/)test/|\\.(spec|int|e2e|esdb)\\.ts$';

/** The feature modules of one root: its sub-folders that have an index.ts. */
function modulesOf(root) {
  const dir = path.join(__dirname, root);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'index.ts')))
    .map((d) => d.name);
}

/**
 * From anywhere in the root but the module itself, a module is reached through its index.ts
 * only. `$1` is the folder (or top-level file) the importer lives in, so a module's own files
 * reach each other freely.
 */
function moduleRules(root) {
  const modules = modulesOf(root);
  if (modules.length === 0) return [];
  const at = root.replace(/[.]/g, '\\.');
  return [
    {
      name: 'no-module-internals',
      comment:
        `A feature module (a folder of ${root} with an index.ts: ${modules.join(', ')}) is ` +
        'imported through its index.ts only; what it does not export there is its own.',
      severity: 'error',
      from: { path: `^${at}/([^/]+)`, pathNot: TEST_FILES },
      to: {
        path: `^${at}/(${modules.join('|')})/`,
        pathNot: [`^${at}/$1/`, `^${at}/(${modules.join('|')})/index\\.ts$`],
      },
    },
  ];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles in apps/ or libs/: two files that need each other are one thing.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-not-to-apps',
      comment: 'libs never import apps (or tools): the apps are built on the libs, not around.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(apps|tools)/' },
    },
    {
      name: 'domain-is-pure',
      comment:
        'libs/domain imports nothing but itself: no other lib, no package, no Node built-in ' +
        '(the ESLint rule in eslint.config.mjs says the same per import, with its reasons).',
      severity: 'error',
      from: { path: '^libs/domain/' },
      to: { pathNot: '^libs/domain/' },
    },
    {
      name: 'web-no-server-code',
      comment:
        'apps/web/src runs in a browser: of libs/ it takes the wire types (libs/contracts) and ' +
        "the domain's limits (libs/domain/src/limits.ts, a file that imports nothing); no other " +
        'app, no Node built-in.',
      severity: 'error',
      from: { path: '^apps/web/src/' },
      to: {
        pathNot: ['^apps/web/src/', '^libs/contracts/', '^libs/domain/src/limits\\.ts$'],
        dependencyTypesNot: ['npm', 'npm-dev'],
      },
    },
    {
      name: 'contracts-are-types',
      comment:
        'libs/contracts reaches the browser: it takes types (only) from libs/domain, and values ' +
        'from nothing of libs/ but the domain limits.',
      severity: 'error',
      from: { path: '^libs/contracts/' },
      to: {
        path: '^libs/',
        pathNot: ['^libs/contracts/', '^libs/domain/src/limits\\.ts$'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'contracts-only-domain',
      comment: 'libs/contracts names the domain and nothing else of libs/, not even as types.',
      severity: 'error',
      from: { path: '^libs/contracts/' },
      to: { path: '^libs/', pathNot: ['^libs/contracts/', '^libs/domain/'] },
    },
    ...MODULE_ROOTS.flatMap(moduleRules),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a cycle of types is still two files that cannot be read apart.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
