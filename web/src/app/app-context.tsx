import type { ReactNode } from 'react'
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { SessionController, SessionControllerState } from '../session/session-controller'
import type { Workspace } from '../spreadsheet/workspace'
import { WorkspaceProvider } from '../spreadsheet/workspace-context'

const SessionContext = createContext<SessionController | null>(null)

export function AppProviders({ session, workspace, children }: { session: SessionController; workspace: Workspace; children: ReactNode }) {
  return (
    <SessionContext.Provider value={session}>
      <WorkspaceProvider workspace={workspace}>{children}</WorkspaceProvider>
    </SessionContext.Provider>
  )
}

export function useSession(): [SessionControllerState, SessionController] {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession must be used within AppProviders')
  const state = useSyncExternalStore(
    (onChange) => session.subscribe(onChange),
    () => session.state,
  )
  return [state, session]
}
