import type { WorkbookCommand } from '@finsheet/contracts'
import { browserStorage } from '../storage/browser-storage'

/**
 * The edits of a service-kept workbook that the spreadsheet service has not yet accepted, kept in
 * the browser's storage: closing the tab, a crash or a reload while the service cannot be reached
 * loses none of them, and the workbook replays them when the same user opens it next.
 *
 * Edits sent whose answer never came (the page was left while they were on their way) may have been
 * applied already; of those only the ones that give the same workbook when applied twice are
 * replayed (cell contents, formats, widths, merges, sheet moves), never a row or column insertion or
 * deletion, which would shift the sheet a second time.
 */
export interface PendingEdits {
  /** The edits to replay, in the order they were made. */
  load(): WorkbookCommand[]
  /** Replaces what is kept; with nothing pending the workbook's entry is forgotten. */
  save(unconfirmed: readonly WorkbookCommand[], queued: readonly WorkbookCommand[]): void
}

interface KeptEdits {
  /** sent, with no answer yet */
  unconfirmed: WorkbookCommand[]
  /** not sent yet */
  queued: WorkbookCommand[]
}

const KEY_PREFIX = 'finsheet:pending-edits:'

export function pendingEditsKey(userId: string, workbookId: string): string {
  return `${KEY_PREFIX}${userId}:${workbookId}`
}

export function pendingEditsFor(userId: string, workbookId: string, storage: Storage | undefined = browserStorage()): PendingEdits {
  const key = pendingEditsKey(userId, workbookId)
  return {
    load: () => {
      if (!storage) return []
      const text = storage.getItem(key)
      if (text === null) return []
      try {
        const parsed = JSON.parse(text) as Partial<KeptEdits>
        if (isCommandList(parsed.unconfirmed) && isCommandList(parsed.queued)) return [...parsed.unconfirmed.filter(isRepeatable), ...parsed.queued]
      } catch {
        // unreadable: written by something else, nothing to replay
      }
      storage.removeItem(key)
      return []
    },
    save: (unconfirmed, queued) => {
      if (!storage) return
      try {
        if (unconfirmed.length === 0 && queued.length === 0) storage.removeItem(key)
        else storage.setItem(key, JSON.stringify({ unconfirmed: [...unconfirmed], queued: [...queued] } satisfies KeptEdits))
      } catch (error) {
        // Storage full or refused: the edits still go to the service from memory.
        console.warn('Could not keep unsaved edits in the browser', error)
      }
    },
  }
}

function isCommandList(value: unknown): value is WorkbookCommand[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string')
}

/** Whether applying the command a second time leaves the workbook as the first time did. */
export function isRepeatable(command: WorkbookCommand): boolean {
  switch (command.type) {
    case 'insert-rows':
    case 'delete-rows':
    case 'insert-columns':
    case 'delete-columns':
      return false
    case 'batch':
      return command.commands.every(isRepeatable)
    default:
      return true
  }
}
