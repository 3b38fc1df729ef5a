/**
 * Each built-in template, created as a workbook through the API: its key outputs are what the engine
 * calculates for the template, and after an input changes through the API they are what the model
 * built afresh with that parameter gives — which only a model whose outputs are formulas of its
 * inputs can pass. (The models' own values are checked against independent calculations in the
 * workbook package.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFinancialModel, calculateTemplate, TEMPLATE_COMPANY, type TemplateDefinition } from '@finsheet/workbook'
import type { FinancialModelType } from '@finsheet/contracts'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('analyst'))
})
afterAll(async () => {
  await t.close()
})

async function createFrom(templateId: string): Promise<string> {
  const created = await call('POST', '/workbooks', { templateId })
  expect(created.status).toBe(201)
  expect(created.json.workbook.templateId).toBe(templateId)
  return created.json.workbookId
}

async function value(id: string, sheet: string, address: string): Promise<unknown> {
  const answer = await call('GET', `/workbook/${id}/cells?sheet=${encodeURIComponent(sheet)}`)
  return answer.json.workbook.sheets[0].cells[address]?.value
}

/** The address of the input labelled `label` on the template's input sheet. */
function inputCell(template: TemplateDefinition, label: string): string {
  const sheet = template.sheets.find((candidate) => candidate.name === template.inputSheet)!
  const row = sheet.rows.findIndex((cells) => cells[0] === label)
  expect(row, label).toBeGreaterThanOrEqual(0)
  return `B${row + 1}`
}

/** Every single-cell key output of the workbook against the template calculated by the engine. */
async function expectKeyOutputs(id: string, template: TemplateDefinition) {
  const engine = calculateTemplate(template)
  for (const output of template.keyOutputs.filter((candidate) => !candidate.address.includes(':'))) {
    const expected = engine.getValue(output.sheet, output.address)
    const actual = await value(id, output.sheet, output.address)
    if (typeof expected === 'number') expect(actual as number, output.label).toBeCloseTo(expected, 6)
    else expect(actual, output.label).toEqual(expected)
  }
}

/** Each template, an input by its label, the parameter it is built from, and a new value (as sent, and as typed into the cell). */
const cases: [string, FinancialModelType, string, string, string, number, number][] = [
  ['DCF Model', 'dcf', 'dcf-model', 'Equity beta', 'beta', 1.4, 1.4],
  ['Three Statement Financial Model', 'three-statement', 'three-statement-model', 'Revenue growth', 'revenueGrowthRate', 25, 0.25],
  ['Startup Financial Model', 'startup', 'startup-financial-model', 'Annual revenue per customer', 'revenuePerCustomer', 1200, 1200],
  ['SaaS Metrics Dashboard', 'saas', 'saas-metrics-dashboard', 'Annual logo churn (per cohort)', 'churn', 20, 0.2],
  ['Real Estate Investment Analysis', 'real-estate', 'real-estate-investment-analysis', 'Purchase price', 'purchasePrice', 800_000, 800_000],
]

describe('built-in templates compute what their inputs imply', () => {
  for (const [name, type, id, label, parameter, sent, typed] of cases) {
    it(`${name}: its key outputs, and again after ${label} changes`, async () => {
      const template = buildFinancialModel(type, TEMPLATE_COMPANY).template
      const workbookId = await createFrom(id)
      expect((await call('GET', `/workbooks/${workbookId}`)).json.workbook).toMatchObject({ name, sheets: template.sheets.map((sheet) => sheet.name) })
      await expectKeyOutputs(workbookId, template)

      const edit = await call('POST', '/update-cell', { workbookId, sheetName: template.inputSheet, cellAddress: inputCell(template, label), value: typed })
      expect(edit.status).toBe(200)
      await expectKeyOutputs(workbookId, buildFinancialModel(type, TEMPLATE_COMPANY, { [parameter]: sent }).template)
    })
  }
})
