import type { DependencyList } from 'react'
import { useCallback, useEffect, useRef, useState } from 'react'

export type Remote<T> =
  | { status: 'loading'; data: T | null; error: null }
  | { status: 'ready'; data: T; error: null }
  | { status: 'error'; data: T | null; error: unknown }

/**
 * Data a screen reads from the services: loaded on mount and whenever `deps` change, again on
 * `reload()`. An answer that arrives after a newer request started is dropped, so a slow first
 * load never overwrites a fresh one. Data already shown stays while a reload runs.
 */
export function useRemote<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): [Remote<T>, () => Promise<void>] {
  const [state, setState] = useState<Remote<T>>({ status: 'loading', data: null, error: null })
  const generation = useRef(0)
  const running = useRef<AbortController | null>(null)
  const loadRef = useRef(load)
  loadRef.current = load

  const run = useCallback(async () => {
    const mine = ++generation.current
    running.current?.abort()
    const controller = new AbortController()
    running.current = controller
    setState((previous) => ({ status: 'loading', data: previous.data, error: null }))
    try {
      const data = await loadRef.current(controller.signal)
      if (mine === generation.current) setState({ status: 'ready', data, error: null })
    } catch (error) {
      if (mine === generation.current && !controller.signal.aborted) setState((previous) => ({ status: 'error', data: previous.data, error }))
    }
  }, [])

  useEffect(() => {
    void run()
    return () => {
      generation.current++
      running.current?.abort()
    }
  }, deps)

  return [state, run]
}
