/**
 * Conditional formats evaluated by the engine: a rule over 10,000 cells (A1:A10000 of a sheet whose
 * column A holds numbers and column B formulas), evaluated the way the grid does after a
 * recalculation (a new evaluator, then each cell's look), for the whole range and for one screen of
 * 50 rows. Each figure is the median of 15 runs, after 3 warm-up runs; times in milliseconds, CPU
 * time of the process beside wall-clock.
 *
 *   npm run bench:conditional
 */
import { loadavg } from 'node:os'
import type { ConditionalFormatRule } from '@finsheet/contracts'
import { ConditionalFormatEvaluator, WorkbookModel } from '@finsheet/workbook/model'

const ROWS = 10_000
const RUNS = 15
const WARM_UP = 3
const SCREEN_ROWS = 50

const RULES: { name: string; rule: ConditionalFormatRule }[] = [
  { name: 'formula  =AND($A1>$B1,MOD(ROW(),2)=0)', rule: { type: 'expression', ranges: [`A1:A${ROWS}`], formulas: ['AND($A1>$B1,MOD(ROW(),2)=0)'], style: { bold: true } } },
  { name: 'cell value > $C$1', rule: { type: 'cellIs', ranges: [`A1:A${ROWS}`], operator: 'greaterThan', formulas: ['$C$1'], style: { fill: '#FFC7CE' } } },
  { name: '3-colour scale (percentile 50)', rule: { type: 'colorScale', ranges: [`A1:A${ROWS}`], thresholds: [{ kind: 'min' }, { kind: 'percentile', value: '50' }, { kind: 'max' }], colors: ['#F8696B', '#FFEB84', '#63BE7B'] } },
  { name: 'top 10%', rule: { type: 'top10', ranges: [`A1:A${ROWS}`], rank: 10, percent: true, style: { bold: true } } },
]

function model(rule: ConditionalFormatRule): WorkbookModel {
  const workbook = new WorkbookModel({ sheets: [{ id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] }] })
  const cells = []
  for (let row = 1; row <= ROWS; row++) cells.push({ address: `A${row}`, input: String((row * 7919) % 1000) }, { address: `B${row}`, input: `=A${row}/2+${row % 50}` })
  cells.push({ address: 'C1', input: '500' })
  workbook.apply([{ type: 'set-cells', sheet: 'Sheet1', cells }, { type: 'set-conditional-formats', sheet: 'Sheet1', rules: [rule] }])
  return workbook
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function measure(workbook: WorkbookModel, rows: number): { wall: number; cpu: number; matched: number } {
  const walls: number[] = []
  const cpus: number[] = []
  let matched = 0
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const startCpu = process.cpuUsage()
    const start = performance.now()
    const evaluator = new ConditionalFormatEvaluator(workbook.engine, 'Sheet1', workbook.sheets[0].conditionalFormats ?? [])
    matched = 0
    for (let row = 0; row < rows; row++) if (evaluator.covers(row, 0) && evaluator.lookAt(row, 0)) matched++
    const wall = performance.now() - start
    const cpu = process.cpuUsage(startCpu)
    if (run >= WARM_UP) {
      walls.push(wall)
      cpus.push((cpu.user + cpu.system) / 1000)
    }
  }
  return { wall: median(walls), cpu: median(cpus), matched }
}

console.log(`Conditional formats over ${ROWS.toLocaleString('en-US')} cells; load average ${loadavg()[0].toFixed(2)}; median of ${RUNS} runs`)
const table = RULES.map(({ name, rule }) => {
  const workbook = model(rule)
  const whole = measure(workbook, ROWS)
  const screen = measure(workbook, SCREEN_ROWS)
  return {
    rule: name,
    'cells matched': whole.matched,
    [`${ROWS} cells ms (wall)`]: whole.wall.toFixed(2),
    [`${ROWS} cells ms (cpu)`]: whole.cpu.toFixed(2),
    [`${SCREEN_ROWS} rows ms (wall)`]: screen.wall.toFixed(3),
  }
})
console.table(table)
