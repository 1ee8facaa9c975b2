// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// libs/domain is pure: no framework, no store, no queue, no clock-bound I/O.
const domainForbidden = [
  {
    group: [
      '@nestjs/*',
      'better-sqlite3',
      '@eventstore/*',
      'bullmq',
      'ioredis',
      'node:*',
      'fs',
      'crypto',
    ],
    message: 'libs/domain is pure: it imports no framework, store, queue or I/O.',
  },
  {
    group: [
      '@sessionboxer/event-store*',
      '@sessionboxer/projections*',
      '@sessionboxer/mcp-adapters*',
      '**/apps/**',
      '**/tools/**',
    ],
    message: 'libs/domain imports nothing of the other libs or the apps.',
  },
];
// The web UI runs in a browser: it sees the control plane only through HTTP and the socket.
const webForbidden = [
  { group: ['node:*', 'fs', 'path', 'crypto'], message: 'apps/web/src runs in a browser.' },
  {
    // …except the wire's shapes, which it shares with the server (libs/contracts), and the
    // domain's limits, a file that imports nothing (so the bundle takes nothing else of libs).
    // A regex: a gitignore-style `!` cannot let one file of an excluded folder back in.
    regex: '^@sessionboxer/(?!contracts(/|$)|domain/limits$)',
    message: 'the web UI talks to the control plane over HTTP and /api/ui, never by import.',
  },
  {
    group: ['**/libs/**', '**/control-plane/**', '**/box-agent/**'],
    message: 'the web UI talks to the control plane over HTTP and /api/ui, never by import.',
  },
];
// libs/contracts is imported by the browser: it holds types, and takes only types from domain.
const contractsForbidden = [
  {
    group: ['@sessionboxer/domain', '@sessionboxer/domain/*'],
    allowTypeImports: true,
    message: 'libs/contracts takes only types from libs/domain: none of it runs in the browser.',
  },
  {
    // Anything but a relative path or libs/domain.
    regex: '^(?!\\.|@sessionboxer/domain(/|$))',
    message: 'libs/contracts imports nothing but its own files and types of libs/domain.',
  },
];
// What a browser page may use without importing it (no-undef is off for TypeScript anyway:
// the type checker knows the DOM from apps/web/tsconfig.json).
const browserGlobals = Object.fromEntries(
  [
    'window',
    'document',
    'navigator',
    'location',
    'history',
    'fetch',
    'WebSocket',
    'console',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'HTMLElement',
    'KeyboardEvent',
    'MouseEvent',
    'Event',
    'URL',
    'URLSearchParams',
  ].map((name) => [name, 'readonly']),
);

const libsForbidden = [
  { group: ['@nestjs/*'], message: 'libs stay framework-free; Nest lives in apps/.' },
  { group: ['**/apps/**', '**/tools/**'], message: 'libs never import apps or tools.' },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js', '*.mjs', '*.cjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'Use crypto for ids; randomness never decides domain outcomes.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    languageOptions: {
      globals: browserGlobals,
      parserOptions: {
        projectService: false,
        project: './apps/web/tsconfig.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: { 'no-restricted-imports': ['error', { patterns: webForbidden }] },
  },
  {
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: domainForbidden }],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: 'libs/domain is pure: time comes in the command metadata.' },
      ],
    },
  },
  {
    files: ['libs/contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: contractsForbidden }],
    },
  },
  {
    files: ['libs/event-store/**/*.ts', 'libs/projections/**/*.ts', 'libs/mcp-adapters/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: libsForbidden }] },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.int.ts',
      '**/*.e2e.ts',
      '**/*.esdb.ts',
      '**/test/**/*.ts',
      'tools/bench/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-syntax': 'off',
      // Tests inspect JSON answers; typing every body would add noise, not safety.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
