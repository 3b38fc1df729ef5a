/**
 * A small dataset of our own in SpreadsheetBench's layout (dataset.json, and per task test cases
 * `{n}_{id}_input.xlsx` / `{n}_{id}_answer.xlsx` under spreadsheet/{id}/), written with exceljs. Its
 * answers carry cached values as Excel saves them. SpreadsheetBench's own data is share-alike and is
 * not part of this repository; this one exercises the same reading and scoring.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'

type Row = (string | number | boolean | null | { formula: string; result: number | string })[]

interface SampleCase {
  input: Row[]
  answer: Row[]
}

interface SampleTask {
  id: string
  instruction: string
  instruction_type: string
  answer_position: string
  sheet: string
  cases: SampleCase[]
}

const regions = (rows: [string, number][]): Row[] => [['Region', 'Amount'], ...rows]

function sortedDesc(rows: [string, number][]): Row[] {
  return regions([...rows].sort((a, b) => b[1] - a[1]))
}

const FIRST: [string, number][] = [['North', 120], ['South', 80], ['East', 150], ['West', 60]]
const SECOND: [string, number][] = [['Alpha', 5.5], ['Beta', 12.25], ['Gamma', 0.75], ['Delta', 3]]
const total = (rows: [string, number][]) => rows.reduce((sum, [, value]) => sum + value, 0)

/** The tasks: four the offline planner reads, and one it does not. */
export const SAMPLE_BENCH_TASKS: SampleTask[] = [
  {
    id: 'sample-sum-column',
    instruction: 'sum column B',
    instruction_type: 'Cell-Level Manipulation',
    answer_position: 'B6',
    sheet: 'Sheet1',
    cases: [FIRST, SECOND].map((rows) => ({ input: regions(rows), answer: [...regions(rows), [null, { formula: 'SUM(B2:B5)', result: total(rows) }]] })),
  },
  {
    id: 'sample-set-rate',
    instruction: 'set C2 to 15%',
    instruction_type: 'Cell-Level Manipulation',
    answer_position: 'Sheet1!C2',
    sheet: 'Sheet1',
    cases: [FIRST, SECOND].map((rows) => ({ input: regions(rows), answer: regions(rows).map((row, index) => (index === 1 ? [...row, 0.15] : row)) })),
  },
  {
    id: 'sample-sort',
    instruction: 'sort A2:B5 by column B descending',
    instruction_type: 'Sheet-Level Manipulation',
    answer_position: "'Data'!A2:B5",
    sheet: 'Data',
    cases: [FIRST, SECOND].map((rows) => ({ input: regions(rows), answer: sortedDesc(rows) })),
  },
  {
    id: 'sample-label',
    instruction: 'write Checked in D1',
    instruction_type: 'Cell-Level Manipulation',
    answer_position: 'D1,A1:B1',
    sheet: 'Sheet1',
    cases: [FIRST].map((rows) => ({ input: regions(rows), answer: regions(rows).map((row, index) => (index === 0 ? [...row, null, 'Checked'] : row)) })),
  },
  {
    id: 'sample-needs-a-model',
    instruction: 'Mark every region whose amount is above the average with "High" in column C',
    instruction_type: 'Cell-Level Manipulation',
    answer_position: 'C2:C5',
    sheet: 'Sheet1',
    cases: [FIRST].map((rows) => {
      const average = total(rows) / rows.length
      return { input: regions(rows), answer: regions(rows).map((row, index) => (index === 0 ? row : [...row, (row[1] as number) > average ? 'High' : null])) }
    }),
  },
]

async function writeWorkbook(file: string, sheet: string, rows: Row[]): Promise<void> {
  const workbook = new ExcelJS.Workbook()
  const worksheet = workbook.addWorksheet(sheet)
  rows.forEach((row, r) => row.forEach((value, c) => {
    if (value !== null) worksheet.getCell(r + 1, c + 1).value = value as ExcelJS.CellValue
  }))
  writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()))
}

/** Writes the dataset into a folder; answers where it is. */
export async function writeSampleBench(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'dataset.json'), JSON.stringify(SAMPLE_BENCH_TASKS.map(({ id, instruction, instruction_type, answer_position }) => ({ id, instruction, instruction_type, answer_position })), null, 1))
  for (const task of SAMPLE_BENCH_TASKS) {
    const folder = join(dir, 'spreadsheet', task.id)
    mkdirSync(folder, { recursive: true })
    for (const [index, testCase] of task.cases.entries()) {
      await writeWorkbook(join(folder, `${index + 1}_${task.id}_input.xlsx`), task.sheet, testCase.input)
      await writeWorkbook(join(folder, `${index + 1}_${task.id}_answer.xlsx`), task.sheet, testCase.answer)
    }
  }
  return dir
}
