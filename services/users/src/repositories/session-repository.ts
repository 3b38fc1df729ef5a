import { DuplicateKeyError, type DocumentStore } from '@finsheet/platform'
import { createDefaultSession, createDefaultWorkbookEntry, DEFAULT_WORKBOOK_ID, type SessionInput, type UserSession } from '@finsheet/contracts'

/** Spreadsheet sessions, one per user, stored under the user's uid. */
export function createSessionRepository(store: DocumentStore) {
  const sessions = () => store.collection<UserSession>('sessions')
  return {
    get(uid: string): Promise<UserSession | null> {
      return sessions().get(uid)
    },

    /** The user's session, created on first call: role admin, defaultWorkbook with a blank Sheet1. */
    async loadOrCreate(user: { uid: string; name: string | null; email: string | null }): Promise<UserSession> {
      const existing = await sessions().get(user.uid)
      if (existing) return existing
      const created = createDefaultSession({ id: user.uid, name: user.name, email: user.email })
      try {
        await sessions().insert(created)
        return created
      } catch (error) {
        // Two tabs asked at once: the other one created it.
        if (error instanceof DuplicateKeyError) return (await sessions().get(user.uid)) as UserSession
        throw error
      }
    },

    /**
     * Saves what the client sent. Missing parts keep their stored values; a session with no
     * workbooks is the cleared state, which keeps the role and gets the default workbook back.
     */
    async save(uid: string, input: SessionInput, fallback: { name: string | null; email: string | null }): Promise<UserSession> {
      const existing = await sessions().get(uid)
      const now = new Date().toISOString()
      const cleared = input.workbooks !== undefined && Object.keys(input.workbooks).length === 0
      const workbooks = cleared || (!input.workbooks && !existing) ? { [DEFAULT_WORKBOOK_ID]: createDefaultWorkbookEntry(now) } : (input.workbooks ?? existing!.workbooks)
      const activeWorkbook = cleared ? DEFAULT_WORKBOOK_ID : (input.activeWorkbook ?? existing?.activeWorkbook ?? DEFAULT_WORKBOOK_ID)
      const session: UserSession = {
        id: uid,
        name: input.name !== undefined ? input.name : (existing?.name ?? fallback.name),
        email: input.email !== undefined ? input.email : (existing?.email ?? fallback.email),
        role: input.role ?? existing?.role ?? 'editor',
        activeWorkbook,
        workbooks,
        updatedAt: now,
      }
      await sessions().put(session)
      return session
    },
  }
}
export type SessionRepository = ReturnType<typeof createSessionRepository>
