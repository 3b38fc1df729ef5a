import type { ReactNode } from 'react'
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { Workspace, WorkspaceState } from './workspace'

const WorkspaceContext = createContext<Workspace | null>(null)

export function WorkspaceProvider({ workspace, children }: { workspace: Workspace; children: ReactNode }) {
  return <WorkspaceContext.Provider value={workspace}>{children}</WorkspaceContext.Provider>
}

export function useWorkspace(): [WorkspaceState, Workspace] {
  const workspace = useContext(WorkspaceContext)
  if (!workspace) throw new Error('useWorkspace must be used within a WorkspaceProvider')
  const state = useSyncExternalStore(
    (onChange) => workspace.subscribe(onChange),
    () => workspace.state,
  )
  return [state, workspace]
}
