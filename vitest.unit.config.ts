import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

/*
 * `npm run test:unit`: every suite that needs no system package (redis-server, LibreOffice) and no
 * browser, for a quick check while working; `npm test` stays the whole suite. A suite that starts
 * one of those belongs in this list.
 */
const needsSystemPackages = [
  'tests/e2e/**',
  'tests/security/web-app.test.ts',
  'tests/files/files-scaled.test.ts',
  'tests/files/job-credentials.test.ts',
  'packages/platform/src/jobs/jobs.test.ts',
  'services/spreadsheet/src/export.test.ts',
]

export default mergeConfig(base, defineConfig({ test: { exclude: needsSystemPackages } }))
