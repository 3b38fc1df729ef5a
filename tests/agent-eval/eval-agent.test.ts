/**
 * The agent evaluation harness on the whole stack with the offline planner (model `local`): the
 * task suite of tests/agent-tasks, where every task a planner can do must pass and the ones that need
 * a language model are listed, and a dataset of our own in SpreadsheetBench's layout, scored as its
 * evaluation.py scores it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'
import { resultTable, runEvaluation } from './harness.js'
import { writeSampleBench } from './sample-bench.js'
import { loadSuiteTasks } from './tasks.js'

const root = mkdtempSync(join(tmpdir(), 'finsheet-eval-test-'))
const tasksDir = fileURLToPath(new URL('../agent-tasks', import.meta.url))
let stack: AllInOne
let token: string

beforeAll(async () => {
  stack = await startAllInOne({ port: 0, dataDir: join(root, 'data'), logger: false, webRoot: join(root, 'no-web'), env: { AUTOSAVE_QUIET_MS: '0', RATE_LIMIT_MAX: '1000000' } })
  const registered = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'eval@example.com', password: 'amber-otter-42', fullName: 'Evaluation' }),
  })
  expect(registered.status).toBe(201)
  token = ((await registered.json()) as { token: string }).token
})
afterAll(async () => {
  await stack?.close()
  rmSync(root, { recursive: true, force: true })
})

describe('eval:agent with the offline planner', () => {
  it('passes every task of the suite that the planner can do, and lists the ones that need a model', { timeout: 120_000 }, async () => {
    const tasks = loadSuiteTasks(tasksDir)
    expect(tasks.length).toBeGreaterThanOrEqual(60)
    const results = await runEvaluation({ baseUrl: stack.url, token, model: 'local', tasksDir })
    console.log(resultTable(results, 'local'))
    const failed = results.filter((result) => !result.passed)
    expect(failed.filter((result) => !result.needsModel).map((result) => `${result.id}: ${result.problems.join('; ')}`)).toEqual([])
    expect(failed.map((result) => result.id).sort()).toEqual(tasks.filter((task) => task.needsModel).map((task) => task.id).sort())
    expect(results.filter((result) => !result.needsModel).reduce((sum, result) => sum + result.unintendedEdits, 0)).toBe(0)
    expect(results.every((result) => result.tokens === 0)).toBe(true)
  })

  it('reads and scores tasks in SpreadsheetBench’s layout, test case by test case', { timeout: 60_000 }, async () => {
    const dir = await writeSampleBench(join(root, 'bench'))
    const results = await runEvaluation({ baseUrl: stack.url, token, model: 'local', tasksDir: dir })
    console.log(resultTable(results, 'local'))
    const byId = Object.fromEntries(results.map((result) => [result.id, result]))
    for (const id of ['sample-sum-column', 'sample-set-rate', 'sample-sort', 'sample-label']) {
      expect(byId[id], byId[id].problems.join('; ')).toMatchObject({ passed: true, soft: 1, unintendedEdits: 0 })
    }
    expect(byId['sample-needs-a-model']).toMatchObject({ passed: false, soft: 0 })
    expect(byId['sample-needs-a-model'].problems[0]).toMatch(/^case 1: Value difference at cell Sheet1!C\d/)
    expect(resultTable(results, 'local')).toContain('SpreadsheetBench scoring: soft restriction 80.0%, hard restriction 80.0%')
  })
})
