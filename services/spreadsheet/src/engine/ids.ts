import { randomBytes, randomUUID } from 'node:crypto'

export const newWorkbookId = (): string => randomUUID()
export const newVersionId = (): string => randomUUID()
export const newChartId = (): string => randomBytes(9).toString('base64url')
