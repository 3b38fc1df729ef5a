#!/usr/bin/env node
// npm run test:compose: docker-compose.yml with two replicas of every stateless service against
// MongoDB (a replica set, majority writes), Redis, MinIO and Qdrant, and the API suites run through
// nginx against it. Without a Docker engine there is nothing to run: it says so and succeeds.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const PROJECT = 'finsheet-compose-test'
const WEB_PORT = process.env.WEB_PORT ?? '18080'
/** Every service that keeps no state of its own runs twice; the stores, and nginx on its published port, once. */
const REPLICATED = ['users', 'spreadsheet', 'files', 'files-worker', 'ai', 'vectordb', 'gateway']
const SUITES = ['tests/compose', 'tests/spreadsheet/spreadsheet-gateway.test.ts']

const engine = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' })
if (engine.error || engine.status !== 0) {
  console.log('skipped: no Docker engine')
  process.exit(0)
}
if (spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status !== 0) {
  console.error('Docker answers, but its compose plugin does not: install docker-compose-plugin')
  process.exit(1)
}

const env = { ...process.env, WEB_PORT }
const compose = (args, options = {}) => spawnSync('docker', ['compose', '-p', PROJECT, ...args], { cwd: repoRoot, env, stdio: 'inherit', ...options })

let status = 1
try {
  const up = compose(['up', '--build', '--detach', '--wait', '--wait-timeout', '900', ...REPLICATED.flatMap((service) => ['--scale', `${service}=2`])])
  if (up.status !== 0) throw new Error('the stack did not come up healthy')
  const url = `http://127.0.0.1:${WEB_PORT}`
  const vitest = require.resolve('vitest/vitest.mjs')
  const run = spawnSync(process.execPath, [vitest, 'run', ...SUITES], { cwd: repoRoot, env: { ...env, FINSHEET_API_URL: url }, stdio: 'inherit' })
  status = run.status ?? 1
} catch (error) {
  console.error(error.message)
  compose(['ps'])
  compose(['logs', '--tail', '50'])
} finally {
  compose(['down', '--volumes', '--remove-orphans'])
}
process.exit(status)
