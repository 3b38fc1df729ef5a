/**
 * The spreadsheet screen's addresses: `/`, and a workbook's own (`/workbooks/{id}`), where `/` leads
 * as soon as the user's active workbook opens. For `page.waitForURL`.
 */
export function onSpreadsheet(url: URL): boolean {
  return url.pathname === '/' || /^\/workbooks\/[^/]+$/.test(url.pathname)
}
