// One runner for every kind of test. `.spec.ts` are unit tests (pure code), `.int.ts` talk to
// real components (SQLite files, child processes), `.e2e.ts` drive the running Nest app over HTTP.
// `.esdb.ts` run the event-store contract against a real EventStoreDB and are only collected
// when EVENTSTORE_URL is set (no EventStoreDB server can run on the CI machines).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
const moduleNameMapper = {
  '^@sessionboxer/(domain|event-store|projections|mcp-adapters|contracts)$':
    '<rootDir>/libs/$1/src',
  '^@sessionboxer/(domain|event-store|projections|mcp-adapters|contracts)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
};
const common = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
const suffixes = ['spec', 'int', 'e2e', ...(process.env.EVENTSTORE_URL ? ['esdb'] : [])];
module.exports = {
  ...common,
  testRegex: `\\.(${suffixes.join('|')})\\.ts$`,
  testTimeout: 30000,
  globalSetup: '<rootDir>/tools/test/build-if-stale.js',
  // On 2 cores jest runs every file in band, inside its own process, where what each file
  // leaves behind adds up: the whole suite reached the 4 GB heap limit there and aborted.
  // A memory limit makes jest use a worker, replaced once it holds more than this after a file.
  workerIdleMemoryLimit: '1536MB',
};
