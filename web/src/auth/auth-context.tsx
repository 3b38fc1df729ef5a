import type { ReactNode } from 'react'
import { createContext, useContext, useEffect, useSyncExternalStore } from 'react'
import type { AuthService, AuthState } from './auth-service'

const AuthContext = createContext<AuthService | null>(null)

export function AuthProvider({ service, children }: { service: AuthService; children: ReactNode }) {
  useEffect(() => {
    service.start()
  }, [service])
  return <AuthContext.Provider value={service}>{children}</AuthContext.Provider>
}

/** The sign-in state and actions; spec 2 §8: using it outside its provider is an error. */
export function useAuth(): { state: AuthState; service: AuthService } {
  const service = useContext(AuthContext)
  if (!service) throw new Error('useAuth must be used within an AuthProvider')
  const state = useSyncExternalStore(
    (onChange) => service.subscribe(onChange),
    () => service.current,
  )
  return { state, service }
}
