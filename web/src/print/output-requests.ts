/**
 * Page setup, Print and Export PDF are asked for by the action registry (menus, Ctrl+P, the toolbar)
 * and carried out by the app shell, which owns their dialog and the print view.
 */
export type OutputRequest = 'page-setup' | 'print' | 'export-pdf'

const listeners = new Set<(request: OutputRequest) => void>()

export function requestOutput(request: OutputRequest): void {
  for (const listener of listeners) listener(request)
}

export function onOutputRequest(listener: (request: OutputRequest) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
