import { createContext, useContext } from 'react'

/** Dialogs the shell owns that screens open: import, clear everything, help. */
export interface ShellActions {
  openImport(): void
  confirmClearAll(): void
  openHelp(): void
}

export const ShellActionsContext = createContext<ShellActions | null>(null)

export function useShellActions(): ShellActions {
  const actions = useContext(ShellActionsContext)
  if (!actions) throw new Error('useShellActions must be used within the app shell')
  return actions
}
