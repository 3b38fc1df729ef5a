import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ChangeResponse, SheetSummary, WorkbookMetadata } from '@finsheet/contracts'
import type { WorkbookDoc } from '../storage/documents.js'
import type { ChangeOutcome } from '../workbooks/workbook-service.js'

export function workbookTotals(workbook: WorkbookDoc): { cells: number; formulas: number } {
  let cells = 0
  let formulas = 0
  for (const stats of Object.values(workbook.sheetStats)) {
    cells += stats.cells
    formulas += stats.formulas
  }
  return { cells, formulas }
}

/** Spec 2 §3, Workbook metadata, with counts. */
export function toMetadata(workbook: WorkbookDoc): WorkbookMetadata {
  const totals = workbookTotals(workbook)
  return {
    id: workbook.id,
    workbookId: workbook.id,
    name: workbook.name,
    createdBy: workbook.ownerId,
    createdAt: workbook.createdAt,
    updatedAt: workbook.updatedAt,
    sheets: workbook.sheets.map((sheet) => sheet.name),
    isAIGenerated: workbook.isAIGenerated,
    storageUrl: workbook.storageUrl,
    templateId: workbook.templateId,
    iterativeCalculation: workbook.iterativeCalculation === true,
    ...(workbook.iterationLimits ? { iterationLimits: { ...workbook.iterationLimits } } : {}),
    revision: workbook.revision,
    totalSheets: workbook.sheets.length,
    totalCells: totals.cells,
    totalFormulas: totals.formulas,
    isDefault: typeof workbook.defaultOf === 'string',
  }
}

export function toSheetSummaries(workbook: WorkbookDoc): SheetSummary[] {
  return workbook.sheets.map((sheet, index) => ({
    name: sheet.name,
    index,
    cellCount: workbook.sheetStats[sheet.id]?.cells ?? 0,
    formulaCount: workbook.sheetStats[sheet.id]?.formulas ?? 0,
    columnWidths: sheet.columnWidths,
    merges: sheet.merges,
    ...(sheet.view ? { view: sheet.view } : {}),
    ...(sheet.validations ? { validations: sheet.validations } : {}),
    ...(sheet.conditionalFormats ? { conditionalFormats: sheet.conditionalFormats } : {}),
  }))
}

export function toChangeResponse(outcome: ChangeOutcome): ChangeResponse {
  return {
    success: true,
    workbookId: outcome.workbook.id,
    revision: outcome.revision,
    baseRevision: outcome.baseRevision,
    changeId: outcome.changeId,
    changedCells: outcome.changedCells,
    structureChanged: outcome.structureChanged,
    merged: outcome.merged,
    conflicts: outcome.conflicts,
    concurrentChanges: outcome.concurrentChanges,
    message: outcome.message,
  }
}

/** A download's Content-Disposition: an ASCII fallback name and the exact name in UTF-8. */
export function attachment(name: string, extension: string): string {
  const base = name.trim() === '' ? 'workbook' : name.trim()
  const ascii = base.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/]/g, '_')
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeURIComponent(base)}.${extension}`
}

/**
 * A large answer written piece by piece, as a stream that gives the event loop a turn after each piece:
 * a reader that keeps up (the kernel takes loopback writes at once) never makes the stream wait, and
 * without the turn the whole answer would be written before any other request of the thread is read.
 */
export function answerStream(pieces: Iterable<string>): Readable {
  async function* taking(): AsyncGenerator<string> {
    for (const piece of pieces) {
      yield piece
      await nextTurn()
    }
  }
  return Readable.from(taking(), { objectMode: false })
}
