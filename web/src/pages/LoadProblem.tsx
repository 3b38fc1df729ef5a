import { TriangleAlert } from 'lucide-react'

/** A screen's data could not be read: what failed and a way to try again. */
export function LoadProblem({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <div className="alert error load-problem" role="alert">
      <TriangleAlert size={16} aria-hidden="true" />
      <span>{message}</span>
      <button type="button" className="button small" onClick={onRetry}>
        Try again
      </button>
    </div>
  )
}
