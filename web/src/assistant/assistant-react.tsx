import type { ReactNode } from 'react'
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { AssistantController, AssistantState } from './assistant-controller'

const AssistantContext = createContext<AssistantController | null>(null)

export function AssistantProvider({ assistant, children }: { assistant: AssistantController; children: ReactNode }) {
  return <AssistantContext.Provider value={assistant}>{children}</AssistantContext.Provider>
}

export function useAssistant(): [AssistantState, AssistantController] {
  const assistant = useContext(AssistantContext)
  if (!assistant) throw new Error('useAssistant must be used within an AssistantProvider')
  const state = useSyncExternalStore(
    (onChange) => assistant.subscribe(onChange),
    () => assistant.state,
  )
  return [state, assistant]
}

/** The controller where a view may sit outside the provider (the grid harness). */
export function useOptionalAssistant(): AssistantController | null {
  return useContext(AssistantContext)
}
