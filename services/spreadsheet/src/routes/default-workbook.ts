import { DEFAULT_SHEET_NAME, DEFAULT_WORKBOOK_ID, DEFAULT_WORKBOOK_NAME, type ImportSheet } from '@finsheet/contracts'
import { currentUser, type AuthUser, type ServiceApp } from '@finsheet/platform'
import type { WorkbookDoc } from '../storage/documents.js'
import { blankSnapshot, snapshotFromSheets } from '../workbooks/new-workbooks.js'
import type { SpreadsheetServices } from './services.js'

/**
 * The user's first workbook, created on first use with its first version: blank with one sheet,
 * Sheet1, or holding `sheets` (cells a browser kept for it before every workbook lived here; ignored
 * once it exists).
 */
export function ensureDefaultWorkbook(services: SpreadsheetServices, user: AuthUser, sheets?: ImportSheet[]): Promise<{ workbook: WorkbookDoc; created: boolean }> {
  return services.workbooks.ensureDefaultWorkbook(
    user,
    () => ({
      name: DEFAULT_WORKBOOK_NAME,
      snapshot: sheets ? snapshotFromSheets(DEFAULT_WORKBOOK_NAME, sheets) : blankSnapshot(DEFAULT_WORKBOOK_NAME),
      kind: 'create',
      label: 'Create the default workbook',
    }),
    async (workbook, state) => {
      const message = sheets ? `Created from the cells your browser session kept: ${sheets.length} sheet${sheets.length === 1 ? '' : 's'}.` : `Created a blank workbook with ${DEFAULT_SHEET_NAME}.`
      await services.versions.createVersion(workbook, state, user, { type: 'major', message, tags: ['created'] })
    },
  )
}

/** Routes whose `:id` is a workbook's. */
const WORKBOOK_ROUTE = /\/workbooks?\/:id(\/|$)/

/**
 * `defaultWorkbook` stays a valid workbook id: in a workbook route's path or a body's `workbookId`, it
 * names the user's first workbook (created on first use), and the route sees that workbook's real id.
 */
export function defaultWorkbookAlias(app: ServiceApp, services: SpreadsheetServices): void {
  app.addHook('preHandler', async (request) => {
    const params = request.params as Record<string, unknown> | undefined
    const body = request.body as Record<string, unknown> | null | undefined
    const inPath = params?.id === DEFAULT_WORKBOOK_ID && WORKBOOK_ROUTE.test(request.routeOptions.url ?? '')
    const inBody = typeof body === 'object' && body !== null && !Array.isArray(body) && body.workbookId === DEFAULT_WORKBOOK_ID
    if (!inPath && !inBody) return
    const { workbook } = await ensureDefaultWorkbook(services, currentUser(request))
    if (inPath) params!.id = workbook.id
    if (inBody) body!.workbookId = workbook.id
  })
}
