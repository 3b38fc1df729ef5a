import { Database } from 'lucide-react'
import { api } from '../app/services'
import { LoadProblem } from '../pages/LoadProblem'
import { useRemote } from '../pages/use-remote'
import { Dialog } from '../ui/Dialog'
import { loadVectorModels } from './files-api'

/** Spec 2 §8. */
export const VECTOR_LOAD_FAILED = 'Failed to load files from Vertex database'
export const NO_INDEXED_MODELS = 'The vector search has no indexed models yet.'

function VectorModelList({ onOpen }: { onOpen(workbookId: string, name: string): void }) {
  const [models, reload] = useRemote(() => loadVectorModels(api), [])
  if (models.status === 'error') return <LoadProblem message={VECTOR_LOAD_FAILED} onRetry={() => void reload()} />
  if (models.status === 'loading' || !models.data)
    return (
      <p className="muted" role="status">
        Asking the vector search…
      </p>
    )
  if (!models.data.healthy) return <p className="empty-state">The vector search service is not answering. Try again later.</p>
  if (models.data.models.length === 0) return <p className="empty-state">{NO_INDEXED_MODELS}</p>
  return (
    <ul className="plain-list">
      {models.data.models.map((model) => (
        <li key={model.workbookId}>
          <span>
            {model.name}
            <span className="muted"> · {model.points.toLocaleString()} cells indexed</span>
          </span>
          <button type="button" className="button small" onClick={() => onOpen(model.workbookId, model.name)}>
            Open
          </button>
        </li>
      ))}
    </ul>
  )
}

/** Import from Vector DB: the user's workbooks the vector search has indexed (GET /api/vectordb/indexed-workbooks), to open. */
export function VectorDbDialog({ open, onClose, onOpen }: { open: boolean; onClose(): void; onOpen(workbookId: string, name: string): void }) {
  return (
    <Dialog open={open} title="Import from Vector DB" onClose={onClose} width={480}>
      <p className="dialog-lead">
        <Database size={16} aria-hidden="true" /> Financial models indexed by the vector search.
      </p>
      {open && <VectorModelList onOpen={onOpen} />}
    </Dialog>
  )
}
