import { defineConfig } from 'vitest/config'

// Workspace packages export their TypeScript sources under the "development" condition,
// so tests run against the sources without a build step.
const conditions = ['development', 'module', 'node', 'import', 'default']
// Tests run in Node, which is also given these conditions for what it loads itself. Vite picks
// `import` or `require` by how a file is loaded; naming `import` (or `module`) here would make Node
// answer a CommonJS require with an ES module namespace (helmet, required by @fastify/helmet).
const nodeConditions = ['development', 'node', 'default']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: nodeConditions, externalConditions: nodeConditions } },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    projects: [
      { extends: true, test: { name: 'units', include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'web/src/**/*.test.ts'] } },
      // The suites under tests/ each start the whole stack in-process, and loading its sources takes a
      // worker about ten seconds; a worker that runs them one after another loads the sources once.
      // They share no module state: every stack, browser and data folder is made by the suite itself.
      { extends: true, test: { name: 'stacks', include: ['tests/**/*.test.ts'], isolate: false } },
    ],
    // The spreadsheet service runs on the stack's own event loop in tests: a worker thread loading the
    // service's TypeScript sources takes seconds to start, times the dozens of stacks the suites start.
    // The suites about one user's calculation holding another's requests start threads themselves.
    env: { SPREADSHEET_THREADS: '0' },
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Most suites wait on servers, browsers and timers rather than compute; on a 2-core machine the
    // default (one fewer worker than cores) would run the files one at a time.
    maxWorkers: 2,
    // Its "module" build imports without file extensions, which Node cannot load under the "module"
    // condition above; inlined with the Anthropic SDK that imports it, Vite resolves those imports.
    server: { deps: { inline: ['@anthropic-ai/sdk', '@opentelemetry/api'] } },
    // CI prints every test, so its log shows which adapters' suites ran and which were skipped.
    reporters: process.env.CI ? ['verbose'] : ['default'],
  },
})
