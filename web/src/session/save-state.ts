import type { SyncFailure } from '../workbook/server-sync'

/** What the top bar says of the user's edits. */
export type SaveState = 'saved' | 'saving' | 'unsaved' | 'offline' | 'error'

export const SAVE_LABELS: Record<SaveState, string> = {
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  offline: 'Not saved (offline): kept in this browser',
  error: 'Not saved',
}

/** Where the user's edits are: waiting to be sent, on their way, and why the last attempt failed. */
export interface EditsProgress {
  pending: number
  sending: boolean
  failure: SyncFailure | null
}

/**
 * The save indicator from the real state of the edits (not of the view: switching sheets or moving
 * the selection is no unsaved change). A failure is shown until a later attempt succeeds, so the
 * indicator does not flicker to 'Saving…' on each retry of an unreachable service.
 */
export function saveStateOf(progress: EditsProgress): SaveState {
  if (progress.failure === 'offline') return 'offline'
  if (progress.failure !== null) return 'error'
  if (progress.sending) return 'saving'
  if (progress.pending > 0) return 'unsaved'
  return 'saved'
}
