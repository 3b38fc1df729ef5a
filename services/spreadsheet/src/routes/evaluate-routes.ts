import { EvaluateFormulaBody, EvaluateFormulaResponse, WorkbookParams, type EvaluateFormulaResponse as EvaluateFormulaAnswer } from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { formulaResultOf, normalizeAddress } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import type { SpreadsheetServices } from './services.js'

/**
 * A formula calculated in the context of a cell without being written: what a formula suggestion
 * would show, or what an agent checks before it writes. Nothing is stored and no revision is made.
 */
export function evaluateRoutes(app: ServiceApp, services: SpreadsheetServices) {
  app.post(
    '/workbook/:id/evaluate',
    {
      schema: {
        tags: ['cells'],
        summary: 'Calculate a formula as if it were typed into a cell, writing nothing',
        params: WorkbookParams,
        body: EvaluateFormulaBody,
        response: { 200: EvaluateFormulaResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { sheet: sheetName, formula } = request.body
      const address = normalizeAddress(request.body.address ?? 'A1')
      if (address === undefined) throw spreadsheetErrors.invalidAddress(request.body.address ?? '')
      return services.workbooks.withOpenWorkbook(request.params.id, currentUser(request), async (_workbook, state): Promise<EvaluateFormulaAnswer> => {
        const sheet = state.sheetByName(sheetName)
        const text = formula.startsWith('=') ? formula : `=${formula}`
        const evaluation = state.engine.evaluateFormula(sheet.name, address, text)
        // The cell's own number format wins, as it would once the formula is written there.
        const format = state.record(sheet.id, address)?.userFormat
        return { success: true, sheet: sheet.name, address, formula: text, ...formulaResultOf(evaluation, format) }
      })
    },
  )
}
