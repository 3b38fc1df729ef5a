import type { UserSession } from '@finsheet/contracts'
import { browserStorage } from '../storage/browser-storage'

/**
 * Before every workbook lived in the spreadsheet service, the default workbook's cells lived in the
 * session, and a session the users service had not confirmed was kept in the browser under this key.
 * It is read once, when the user comes back, so that cells typed then reach the user's first workbook;
 * nothing writes it any more.
 */
const KEY_PREFIX = 'finsheet:unsaved-session:'

export function legacySessionKey(userId: string): string {
  return KEY_PREFIX + userId
}

/** The session this browser kept for the user and the service never confirmed, if any. */
export function readLegacySession(userId: string, storage: Storage | undefined = browserStorage()): UserSession | null {
  const text = storage?.getItem(legacySessionKey(userId)) ?? null
  if (text === null) return null
  try {
    const kept = JSON.parse(text) as { session?: Partial<UserSession> }
    const session = kept.session
    if (session && session.id === userId && typeof session.workbooks === 'object' && session.workbooks !== null) return session as UserSession
  } catch {
    // unreadable: nothing to bring back
  }
  forgetLegacySession(userId, storage)
  return null
}

export function forgetLegacySession(userId: string, storage: Storage | undefined = browserStorage()): void {
  storage?.removeItem(legacySessionKey(userId))
}
