import { randomBytes, randomUUID } from 'node:crypto'

export const newWorkbookId = (): string => randomUUID()
export const newVersionId = (): string => randomUUID()
/** Sheet ids only need to be unique within their workbook. */
export const newSheetId = (): string => randomBytes(6).toString('base64url')
export const newChartId = (): string => randomBytes(9).toString('base64url')
