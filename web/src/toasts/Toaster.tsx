import { useRouterState } from '@tanstack/react-router'
import { useEffect, useSyncExternalStore } from 'react'
import type { Toast } from './toast-store'
import { toasts } from './toast-store'
import { isSpreadsheetPath } from '../shell/navigation-items'

function ToastItem({ item }: { item: Toast }) {
  useEffect(() => {
    if (!item.open || item.duration === Infinity) return
    const timer = setTimeout(() => toasts.dismiss(item.id), item.duration)
    return () => clearTimeout(timer)
  }, [item.id, item.open, item.duration])
  return (
    <li className={`toast toast-${item.variant}`} role={item.variant === 'destructive' ? 'alert' : 'status'}>
      <div className="toast-text">
        {item.title && <p className="toast-title">{item.title}</p>}
        {item.description && <p className="toast-description">{item.description}</p>}
      </div>
      {item.action && (
        <button type="button" className="button small" onClick={item.action.onClick}>
          {item.action.label}
        </button>
      )}
      <button type="button" className="icon-button toast-close" aria-label="Dismiss notification" onClick={() => toasts.dismiss(item.id)}>
        ×
      </button>
    </li>
  )
}

/** Shows open toasts: one at a time over the spreadsheet (spec 1 §2), up to five elsewhere (spec 2 §2.5). */
export function Toaster() {
  const list = useSyncExternalStore(
    (onChange) => toasts.subscribe(onChange),
    () => toasts.current,
  )
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const limit = isSpreadsheetPath(pathname) ? 1 : 5
  const open = list.filter((t) => t.open).slice(0, limit)
  return (
    <ol className="toaster" aria-label="Notifications" aria-live="polite">
      {open.map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </ol>
  )
}
