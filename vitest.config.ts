import { defineConfig } from 'vitest/config'

// Workspace packages export their TypeScript sources under the "development" condition,
// so tests run against the sources without a build step.
const conditions = ['development', 'module', 'node', 'import', 'default']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // CI prints every test, so its log shows which adapters' suites ran and which were skipped.
    reporters: process.env.CI ? ['verbose'] : ['default'],
  },
})
