/**
 * The agent evaluation: every task of a folder run against a running stack with one model, each
 * scored, and the figures put in a table — pass rate, tool calls, tokens, unintended edits (cells
 * changed outside the expected ones) and seconds per task, by family. The folder holds the suite's
 * JSON tasks, or a dataset in SpreadsheetBench's layout, scored as its evaluation.py scores it.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { runAgentAction } from './agent-run.js'
import { changesOutside, compareWorkbooks, isBenchDataset, loadBenchTasks, readBenchWorkbook, type BenchTask } from './spreadsheetbench.js'
import { gatewayApi, type SpreadsheetApi } from './spreadsheet-api.js'
import { checkTask, loadSuiteTasks, type SuiteTask } from './tasks.js'
import { changedInputs, fixtureBody, importWorkbook, readWorkbook } from './workbook-cells.js'

export interface EvaluationOptions {
  /** The stack's gateway, such as http://127.0.0.1:8080. */
  baseUrl: string
  /** A signed-in user's token. */
  token: string
  model: string
  tasksDir: string
  /** Only the tasks whose id holds this text. */
  filter?: string
  env?: NodeJS.ProcessEnv
  onResult?: (result: TaskResult) => void
}

export interface TaskResult {
  id: string
  family: string
  passed: boolean
  /** Why it failed, when it did. */
  problems: string[]
  toolCalls: number
  tokens: number
  unintendedEdits: number
  seconds: number
  needsModel: boolean
  /** SpreadsheetBench: the share of test cases passed (the soft restriction). */
  soft?: number
}

async function runSuiteTask(api: SpreadsheetApi, task: SuiteTask, options: EvaluationOptions): Promise<TaskResult> {
  const workbookId = await importWorkbook(api, fixtureBody(task.workbook))
  const before = await readWorkbook(api, workbookId)
  const instructions = Array.isArray(task.instruction) ? task.instruction : [task.instruction]
  let toolCalls = 0
  let tokens = 0
  let seconds = 0
  const answers: string[] = []
  const failures: string[] = []
  for (const instruction of instructions) {
    const outcome = await runAgentAction(api, { workbookId, command: instruction, model: options.model, activeSheet: task.activeSheet, selection: task.selection })
    toolCalls += outcome.toolCalls.length
    tokens += outcome.tokens.input + outcome.tokens.output
    seconds += outcome.seconds
    answers.push(outcome.message)
    if (outcome.failure) failures.push(outcome.failure)
  }
  const after = await readWorkbook(api, workbookId)
  const check = checkTask(task, before, after, answers.join('\n\n'), changedInputs(before, after))
  const problems = [...failures, ...check.problems]
  return { id: task.id, family: task.family, passed: problems.length === 0, problems, toolCalls, tokens, unintendedEdits: check.unintended.length, seconds, needsModel: task.needsModel ?? false }
}

/** Uploads an xlsx through the spreadsheet area's upload route; the workbook it became. */
async function uploadWorkbook(options: EvaluationOptions, file: string): Promise<string> {
  const form = new FormData()
  form.append('file', new Blob([readFileSync(file)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), basename(file))
  const headers = { authorization: `Bearer ${options.token}` }
  const response = await fetch(`${options.baseUrl}/api/spreadsheet/upload-excel`, { method: 'POST', headers, body: form })
  const answer = (await response.json()) as { workbookId?: string | null; pending?: boolean; fileId?: string; error?: string | { message: string } }
  if (answer.workbookId) return answer.workbookId
  if (answer.pending && answer.fileId) {
    for (let attempt = 0; attempt < 120; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      const file = (await (await fetch(`${options.baseUrl}/api/files/file/${answer.fileId}`, { headers })).json()) as { file?: { workbookId?: string; processedWorkbookId?: string } }
      const id = file.file?.processedWorkbookId ?? file.file?.workbookId
      if (id) return id
    }
  }
  throw new Error(`uploading ${basename(file)} failed: ${response.status} ${JSON.stringify(answer.error ?? answer)}`)
}

async function runBenchTask(api: SpreadsheetApi, task: BenchTask, options: EvaluationOptions): Promise<TaskResult> {
  const result: TaskResult = { id: task.id, family: `spreadsheetbench: ${task.instructionType || 'task'}`, passed: false, problems: [], toolCalls: 0, tokens: 0, unintendedEdits: 0, seconds: 0, needsModel: false }
  if (task.cases.length === 0) return { ...result, problems: ['no test case files'] }
  let passedCases = 0
  for (const [index, testCase] of task.cases.entries()) {
    try {
      const workbookId = await uploadWorkbook(options, testCase.input)
      const input = await readBenchWorkbook(testCase.input)
      const outcome = await runAgentAction(api, { workbookId, command: task.instruction, model: options.model, activeSheet: input.sheetNames[0] })
      result.toolCalls += outcome.toolCalls.length
      result.tokens += outcome.tokens.input + outcome.tokens.output
      result.seconds += outcome.seconds
      if (outcome.failure) result.problems.push(`case ${index + 1}: ${outcome.failure}`)
      const exported = await api('GET', `/workbook/${workbookId}/export?format=xlsx`)
      if (exported.status !== 200) throw new Error(`export answered ${exported.status}`)
      const output = await readBenchWorkbook(exported.raw)
      const answer = await readBenchWorkbook(testCase.answer)
      const compared = compareWorkbooks(answer, output, task.answerPosition)
      if (compared.passed) passedCases++
      else result.problems.push(`case ${index + 1}: ${compared.message}`)
      result.unintendedEdits += changesOutside(input, output, answer, task.answerPosition).length
    } catch (error) {
      result.problems.push(`case ${index + 1}: ${(error as Error).message}`)
    }
  }
  result.soft = passedCases / task.cases.length
  result.passed = passedCases === task.cases.length
  return result
}

export async function runEvaluation(options: EvaluationOptions): Promise<TaskResult[]> {
  const api = gatewayApi(options.baseUrl, options.token)
  const results: TaskResult[] = []
  const keep = (id: string) => options.filter === undefined || id.includes(options.filter)
  if (isBenchDataset(options.tasksDir)) {
    for (const task of loadBenchTasks(options.tasksDir).filter((entry) => keep(entry.id))) {
      const result = await runBenchTask(api, task, options)
      results.push(result)
      options.onResult?.(result)
    }
    return results
  }
  for (const task of loadSuiteTasks(options.tasksDir).filter((entry) => keep(entry.id))) {
    let result: TaskResult
    try {
      result = await runSuiteTask(api, task, options)
    } catch (error) {
      result = { id: task.id, family: task.family, passed: false, problems: [(error as Error).message], toolCalls: 0, tokens: 0, unintendedEdits: 0, seconds: 0, needsModel: task.needsModel ?? false }
    }
    results.push(result)
    options.onResult?.(result)
  }
  return results
}

/** The results as a table, one row per family and a total row, then each failed task with why. */
export function resultTable(results: TaskResult[], model: string): string {
  const families = [...new Set(results.map((result) => result.family))]
  const rows = [...families.map((family) => ({ name: family, list: results.filter((result) => result.family === family) })), { name: 'all tasks', list: results }]
  const header = ['family', 'tasks', 'passed', 'pass rate', 'tool calls/task', 'tokens', 'unintended edits', 's/task']
  const cells = rows.map(({ name, list }) => {
    const n = list.length || 1
    return [
      name,
      String(list.length),
      String(list.filter((result) => result.passed).length),
      `${((100 * list.filter((result) => result.passed).length) / n).toFixed(1)}%`,
      (list.reduce((sum, result) => sum + result.toolCalls, 0) / n).toFixed(1),
      String(list.reduce((sum, result) => sum + result.tokens, 0)),
      String(list.reduce((sum, result) => sum + result.unintendedEdits, 0)),
      (list.reduce((sum, result) => sum + result.seconds, 0) / n).toFixed(2),
    ]
  })
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column].length)))
  const line = (row: string[]) => `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ')} |`
  const out = [`Agent evaluation with model ${model}: ${results.length} tasks`, '', line(header), `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`]
  cells.forEach((row, index) => {
    if (index === cells.length - 1) out.push(line(row.map(() => '').map((_, column) => '-'.repeat(widths[column]))))
    out.push(line(row))
  })
  const failed = results.filter((result) => !result.passed)
  if (failed.length > 0) {
    out.push('', 'Failed:')
    for (const result of failed) out.push(`- ${result.id}${result.needsModel ? ' (needs a model)' : ''}: ${result.problems.slice(0, 3).join('; ')}`)
  }
  const bench = results.filter((result) => result.soft !== undefined)
  if (bench.length > 0) {
    const soft = bench.reduce((sum, result) => sum + (result.soft ?? 0), 0) / bench.length
    out.push('', `SpreadsheetBench scoring: soft restriction ${(100 * soft).toFixed(1)}%, hard restriction ${((100 * bench.filter((result) => result.passed).length) / bench.length).toFixed(1)}%`)
  }
  return out.join('\n')
}
