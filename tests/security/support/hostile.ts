/**
 * What the hostile-input suites share: a spreadsheet API for one account, a run of another user's
 * edits made while a heavy request is under way, and the table of figures each suite prints.
 */
import { expect } from 'vitest'
import type { Answer, Api, IsolatedStack } from './isolated-stack.js'

export interface Workbook {
  id: string
  change(commands: unknown[]): Promise<Answer>
  /** The cells of the first sheet (or of `sheet`) as the cells route answers them. */
  cells(sheet?: string): Promise<Record<string, { value: unknown; input: string }>>
}

export async function newWorkbook(api: Api, name = 'Hostile'): Promise<Workbook> {
  const created = await api('POST', '/api/spreadsheet/workbooks', { name })
  expect(created.status).toBe(201)
  const id = created.json.workbookId as string
  return {
    id,
    change: (commands) => api('POST', `/api/spreadsheet/workbook/${id}/changes`, { commands }),
    async cells(sheet) {
      const answer = await api('GET', `/api/spreadsheet/workbook/${id}/cells${sheet ? `?sheet=${encodeURIComponent(sheet)}` : ''}`)
      expect(answer.status).toBe(200)
      return answer.json.workbook.sheets[0].cells
    },
  }
}

export const setCells = (cells: Record<string, string | number>, sheet = 'Sheet1') => ({
  type: 'set-cells',
  sheet,
  cells: Object.entries(cells).map(([address, input]) => ({ address, input })),
})

/** The value a change answered for one cell. */
export function changedValue(answer: Answer, address: string, sheet = 'Sheet1'): unknown {
  return (answer.json.changedCells as { sheet: string; address: string; value: unknown }[]).find((cell) => cell.sheet === sheet && cell.address === address)?.value
}

export interface Figures {
  reproduction: string
  answer: string
  ms: number
  peakMb: number | undefined
  /** Another user's edits made meanwhile: how many, how many were answered before the heavy request, and the slowest. */
  otherEdits: number
  otherEditsAnsweredFirst: number
  otherEditMaxMs: number
}

/**
 * Runs `heavy` while another user edits their own workbook in a loop, and checks that the process
 * stayed up and answered every one of those edits. Answers the heavy request and the figures.
 */
export async function whileAnotherUserEdits(
  stack: IsolatedStack,
  other: Workbook,
  reproduction: string,
  heavy: () => Promise<Answer>,
): Promise<{ answer: Answer; edits: Answer[]; figures: Figures }> {
  stack.resetPeakMemory()
  const edits: Answer[] = []
  let running = true
  let answeredFirst = 0
  const editing = (async () => {
    for (let n = 1; running; n++) {
      edits.push(await other.change([setCells({ A1: n })]))
      if (running) answeredFirst++
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  const answer = await heavy()
  running = false
  await editing
  expect(stack.alive(), 'the stack is still running').toBe(true)
  expect(edits.length).toBeGreaterThan(0)
  expect(edits.map((edit) => edit.status)).toEqual(edits.map(() => 200))
  const figures: Figures = {
    reproduction,
    answer: answer.status === 200 ? `200 ${answer.json?.message ?? ''}`.trim() : `${answer.status} ${answer.json?.error?.code ?? ''}`,
    ms: Math.round(answer.ms),
    peakMb: stack.peakMemoryMb(),
    otherEdits: edits.length,
    otherEditsAnsweredFirst: answeredFirst,
    otherEditMaxMs: Math.round(edits.reduce((most, edit) => Math.max(most, edit.ms), 0)),
  }
  return { answer, edits, figures }
}

/** Prints the figures of a suite as a table. */
export function printFigures(title: string, rows: readonly Figures[]): void {
  const header = ['reproduction', 'answer', 'ms', 'peak RSS MB', "other user's edits", 'answered before it', 'slowest of them ms']
  const lines = rows.map((row) => [row.reproduction, row.answer.slice(0, 90), String(row.ms), String(row.peakMb ?? '-'), String(row.otherEdits), String(row.otherEditsAnsweredFirst), String(row.otherEditMaxMs)])
  const widths = header.map((name, i) => Math.max(name.length, ...lines.map((line) => line[i].length)))
  const format = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`
  console.log([`\n${title}`, format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n'))
}
