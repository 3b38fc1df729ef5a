import type { WorkbookMetadata } from '@finsheet/contracts'

/** The session's active workbook when the service keeps it, else the most recently changed one. */
export function defaultWorkbookId(workbooks: readonly Pick<WorkbookMetadata, 'id'>[], activeWorkbook: string | undefined): string | null {
  if (activeWorkbook && workbooks.some((workbook) => workbook.id === activeWorkbook)) return activeWorkbook
  return workbooks[0]?.id ?? null
}

/** The chosen workbook while it still exists, else the default one. */
export function chosenWorkbookId(workbooks: readonly Pick<WorkbookMetadata, 'id'>[], chosen: string | null, activeWorkbook: string | undefined): string | null {
  if (chosen && workbooks.some((workbook) => workbook.id === chosen)) return chosen
  return defaultWorkbookId(workbooks, activeWorkbook)
}
