import { describe, expect, it } from 'vitest'
import { FINANCIAL_MODEL_TYPES, type AuditFinding } from '@finsheet/contracts'
import { buildFinancialModel, templateSheets } from '@finsheet/workbook'
import { calculationOptions, WorkbookState, type CellSource } from '../../engine/workbook-state.js'
import { snapshotFromSheets } from '../../workbooks/new-workbooks.js'
import { contentOf, modelWorkbook, runTurn, shownState } from '../../testing/agent-workbook.js'

/**
 * A workbook seeded with one of each problem: Inputs holds the growth rate; on Model, B3 divides by
 * the empty B9 (#DIV/0!, which B4 inherits), D1 and D2 read each other, D6 breaks the pattern of row
 * 6 (B6:F6) with a typed 0.3, C7 multiplies by a typed 1.05, B5 is a typed number outside Inputs, and H9
 * totals H3:H7 of the figures H2:H8.
 */
function seeded(): WorkbookState {
  const cells: CellSource[] = []
  const put = (sheetId: string, address: string, input: string) => cells.push({ sheetId, address, input })
  put('i', 'A1', 'Growth')
  put('i', 'B1', '5%')
  put('m', 'A2', 'Revenue')
  put('m', 'B2', '=Inputs!B1*1000')
  put('m', 'A3', 'Margin')
  put('m', 'B3', '=B2/B9')
  put('m', 'A4', 'Double margin')
  put('m', 'B4', '=B3*2')
  put('m', 'D1', '=D2+1')
  put('m', 'D2', '=D1*2')
  put('m', 'A5', 'Volume')
  put('m', 'B5', '100')
  for (const col of ['C', 'D', 'E', 'F']) put('m', `${col}5`, `=Inputs!$B$1*${String.fromCharCode(col.charCodeAt(0) - 1)}5`)
  put('m', 'A6', 'Cost')
  for (const col of ['B', 'C', 'E', 'F']) put('m', `${col}6`, `=${col}5*Inputs!$B$1`)
  put('m', 'D6', '=D5*0.3')
  put('m', 'A7', 'Price')
  put('m', 'B7', '=Inputs!B1')
  put('m', 'C7', '=B7*1.05')
  put('m', 'G1', 'Units')
  for (let row = 2; row <= 8; row++) put('m', `H${row}`, '=Inputs!$B$1*$B$2')
  put('m', 'G9', 'Total units')
  put('m', 'H9', '=SUM(H3:H7)')
  return WorkbookState.build({
    revision: 1,
    sheets: [
      { id: 'i', name: 'Inputs', columnWidths: {}, merges: [] },
      { id: 'm', name: 'Model', columnWidths: {}, merges: [] },
    ],
    definedNames: [],
    charts: [],
    cells,
  })
}

async function audit(state: WorkbookState, args: object = {}) {
  return contentOf((await runTurn(state, [{ name: 'audit_workbook', arguments: args }])).results[0]) as {
    findings: AuditFinding[]
    counts: { error: number; warning: number; info: number }
    inputSheet: string | null
    checkedFormulas: number
  }
}

const of = (findings: AuditFinding[], rule: AuditFinding['rule']) => findings.filter((finding) => finding.rule === rule)

describe('audit_workbook', () => {
  it('finds each seeded problem, with its cells and a fix, errors first', async () => {
    const state = seeded()
    const before = shownState(state)
    const report = await audit(state)
    const { findings } = report
    expect(report.inputSheet).toBe('Inputs')

    const [error] = of(findings, 'error-cell')
    expect(error).toMatchObject({ severity: 'error', cells: ['Model!B3', 'Model!B4'] })
    expect(error.message).toBe('Model!B3 shows #DIV/0! because it divides by zero or by an empty cell (=B2/B9); 1 other cell shows it because they depend on it')
    expect(error.fix).toMatch(/guard the division/)

    const [loop] = of(findings, 'circular-reference')
    expect(loop).toMatchObject({ severity: 'error', cells: ['Model!D1', 'Model!D2'] })

    const [breaks] = of(findings, 'pattern-break')
    expect(breaks).toMatchObject({ severity: 'warning', cells: ['Model!D6', 'Model!C6'] })
    expect(breaks.message).toContain('(=D5*0.3) differs from the formulas on both sides of it in its row')

    expect(of(findings, 'number-in-formula').map((finding) => [finding.cells[0], finding.message])).toEqual([
      ['Model!D6', 'Model!D6 has 0.3 typed into its formula =D5*0.3'],
      ['Model!C7', 'Model!C7 has 1.05 typed into its formula =B7*1.05'],
    ])
    expect(of(findings, 'number-in-formula')[0].fix).toBe('Put 0.3 in a labelled input cell on Inputs and refer to it')

    const [outside] = of(findings, 'input-outside-input-sheet')
    expect(outside).toMatchObject({ severity: 'warning', cells: ['Model!B5'] })
    expect(outside.message).toBe('Model has 1 typed number outside the input sheet Inputs: Model!B5 (Volume)')

    const [empty] = of(findings, 'empty-reference')
    expect(empty).toMatchObject({ cells: ['Model!B3'], message: 'Model!B3 reads Model!B9, which is empty (counted as 0)' })

    const [total] = of(findings, 'incomplete-total')
    expect(total).toMatchObject({ severity: 'error', cells: ['Model!H9', 'Model!H2', 'Model!H8'], fix: 'Extend the total to =SUM(H2:H8)' })
    expect(total.message).toBe('Model!H9 totals H3:H7 but misses Model!H2 (Revenue), Model!H8, which are part of the same block of figures')

    const severities = findings.map((finding) => finding.severity)
    expect(severities).toEqual([...severities].sort((a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b)))
    expect(report.counts).toEqual({ error: 3, warning: 5, info: 0 })
    // It reads only.
    expect(shownState(state)).toEqual(before)
  })

  it('audits one sheet when asked, and knows nothing of an input sheet a workbook does not have', async () => {
    const report = await audit(seeded(), { sheet: 'Inputs' })
    expect(report.findings).toEqual([])
    const plain = await audit(modelWorkbook())
    expect(plain.inputSheet).toBe('Assumptions')
    expect(of(plain.findings, 'input-outside-input-sheet').map((finding) => finding.cells)).toEqual([['FCF!B2']])
  })

  it('finds nothing to fix in a generated model; the LBO’s loop is noted as calculated by design', async () => {
    for (const type of FINANCIAL_MODEL_TYPES) {
      const { name, template } = buildFinancialModel(type, 'Acme', { projectionYears: 5 })
      const state = WorkbookState.fromSnapshot(snapshotFromSheets(name, templateSheets(template)), 1, calculationOptions(template.iterativeCalculation))
      const report = await audit(state)
      const problems = report.findings.filter((finding) => finding.severity !== 'info')
      expect(problems, `${type}: ${problems.map((finding) => finding.message).join('\n')}`).toEqual([])
      expect(report.checkedFormulas).toBeGreaterThan(50)
      if (type === 'lbo') {
        expect(of(report.findings, 'circular-reference').length).toBe(5)
        expect(of(report.findings, 'circular-reference')[0]).toMatchObject({ severity: 'info', message: expect.stringMatching(/calculated iteratively/) })
      } else expect(report.findings).toEqual([])
    }
  })
})
