/**
 * npm run eval:agent [-- --model M] [--tasks DIR] [--only TEXT]
 *
 * Starts the whole stack in this process on throwaway storage, signs up a user, runs every task of
 * DIR (default tests/agent-tasks; a folder with dataset.json is read as SpreadsheetBench's layout)
 * with model M (default local, the offline planner; a hosted model needs its key in the environment)
 * and prints the table. Exits 1 when a task that does not need a model failed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startAllInOne } from '@finsheet/standalone'
import { resultTable, runEvaluation } from './harness.js'

// `npm run eval:agent --model M` hands the flag to npm, which passes it on as npm_config_model.
const option = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : process.env[`npm_config_${name}`]
}
const model = option('model') ?? 'local'
const tasksDir = resolve(option('tasks') ?? fileURLToPath(new URL('../agent-tasks', import.meta.url)))

const root = mkdtempSync(join(tmpdir(), 'finsheet-eval-'))
const stack = await startAllInOne({ port: 0, dataDir: join(root, 'data'), logger: false, webRoot: join(root, 'no-web'), env: { ...process.env, AUTOSAVE_QUIET_MS: '0', RATE_LIMIT_MAX: '1000000' } })
let failedWithoutModel = 0
try {
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'eval@example.com', password: 'amber-otter-42', fullName: 'Agent evaluation' }),
  })
  if (registered.status !== 201) throw new Error(`signing up answered ${registered.status}`)
  const { token } = (await registered.json()) as { token: string }
  const results = await runEvaluation({
    baseUrl: stack.url,
    token,
    model,
    tasksDir,
    filter: option('only'),
    onResult: (result) => process.stderr.write(`${result.passed ? 'pass' : 'FAIL'} ${result.id}${result.passed ? '' : `: ${result.problems[0] ?? ''}`}\n`),
  })
  console.log(resultTable(results, model))
  failedWithoutModel = results.filter((result) => !result.passed && !result.needsModel).length
} finally {
  await stack.close()
  rmSync(root, { recursive: true, force: true })
}
process.exit(failedWithoutModel > 0 ? 1 : 0)
