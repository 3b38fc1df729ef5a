import type { FileJobResult } from '@finsheet/contracts'
import { toast } from '../toasts/toast-store'

/** How long the list of what an import left out stays on screen: long enough to read a few lines. */
const NOT_KEPT_TOAST_MS = 20_000

/** 'Not kept: charts: 7, on sheets Summary and Returns; macros (vbaProject).', or '' when the import kept everything. */
export function notKeptText(result: Pick<FileJobResult, 'report'>): string {
  const notKept = result.report?.notKept ?? []
  return notKept.length === 0 ? '' : `Not kept: ${notKept.join('; ')}.`
}

/** Tells the user, after an import, what of the file the workbook does not keep (also kept in the notifications). */
export function announceNotKept(fileName: string, result: Pick<FileJobResult, 'report'>): void {
  const text = notKeptText(result)
  if (text !== '') toast({ title: `Not kept from ${fileName}`, description: text, duration: NOT_KEPT_TOAST_MS })
}
