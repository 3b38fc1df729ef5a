import type { UserSession } from '@finsheet/contracts'
import { browserStorage } from '../storage/browser-storage'

/**
 * The last session a save was started for, kept in the browser until the users service has it:
 * the default workbook lives in the session, so edits to it typed while the service cannot be
 * reached survive a reload or a closed tab, and are saved when the same user comes back.
 */
const KEY_PREFIX = 'finsheet:unsaved-session:'

interface KeptSession {
  /** which save wrote it, so that an older save's answer does not forget a newer session */
  write: number
  session: UserSession
}

export function unsavedSessionKey(userId: string): string {
  return KEY_PREFIX + userId
}

export class UnsavedSession {
  private writes = 0

  constructor(
    private readonly userId: string,
    private readonly storage: Storage | undefined = browserStorage(),
  ) {}

  /** Keeps the session about to be sent; the returned mark is given back to `saved`. */
  keep(session: UserSession): number {
    const write = ++this.writes
    try {
      this.storage?.setItem(unsavedSessionKey(this.userId), JSON.stringify({ write, session } satisfies KeptSession))
    } catch (error) {
      // Storage full or refused: the session still goes to the service from memory.
      console.warn('Could not keep the unsaved session in the browser', error)
    }
    return write
  }

  /** The service has the session of that write: forget it unless a newer one was kept since. */
  saved(write: number): void {
    if (!this.storage) return
    const kept = this.read()
    if (!kept || kept.write <= write) this.storage.removeItem(unsavedSessionKey(this.userId))
  }

  /** A session the service never confirmed, if one is kept for this user. */
  pending(): UserSession | null {
    const kept = this.read()
    if (kept) this.writes = Math.max(this.writes, kept.write)
    return kept?.session ?? null
  }

  private read(): KeptSession | null {
    const text = this.storage?.getItem(unsavedSessionKey(this.userId)) ?? null
    if (text === null) return null
    try {
      const kept = JSON.parse(text) as Partial<KeptSession>
      if (typeof kept.write === 'number' && kept.session && kept.session.id === this.userId && typeof kept.session.workbooks === 'object') return kept as KeptSession
    } catch {
      // unreadable: nothing to restore
    }
    this.storage?.removeItem(unsavedSessionKey(this.userId))
    return null
  }
}
