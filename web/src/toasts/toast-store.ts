/**
 * Notifications (spec 1 §3 Toast, §4; spec 2 §2.5, §4): each toast has id, title, description,
 * action and open. They are added, updated, dismissed (closed, still kept) and removed; at most
 * 5 are kept, newest first, and a dismissed toast is removed after 1,000,000 ms.
 */
export const TOAST_LIMIT = 5
export const TOAST_REMOVE_DELAY_MS = 1_000_000
/** Spec 2 §9: notifications last 5 s unless a shorter 3 s is asked for. */
export const TOAST_DURATION_MS = 5000
export const TOAST_SHORT_DURATION_MS = 3000

export type ToastVariant = 'default' | 'success' | 'destructive'

/** How many past notifications the Notifications menu lists. */
export const NOTIFICATION_HISTORY_LIMIT = 20

/** A notification as the Notifications menu lists it, after its toast has gone. */
export interface PastNotification {
  id: string
  title?: string
  description?: string
  variant: ToastVariant
  /** when it was shown, in ms since the epoch */
  at: number
}

export interface ToastAction {
  label: string
  onClick: () => void
}

export interface Toast {
  id: string
  title?: string
  description?: string
  action?: ToastAction
  open: boolean
  variant: ToastVariant
  duration: number
}

export type ToastEvent =
  | { type: 'add'; toast: Toast }
  | { type: 'update'; toast: Partial<Toast> & { id: string } }
  | { type: 'dismiss'; id?: string }
  | { type: 'remove'; id?: string }

export function toastReducer(toasts: readonly Toast[], event: ToastEvent): Toast[] {
  switch (event.type) {
    case 'add':
      return [event.toast, ...toasts].slice(0, TOAST_LIMIT)
    case 'update':
      return toasts.map((t) => (t.id === event.toast.id ? { ...t, ...event.toast } : t))
    case 'dismiss':
      return toasts.map((t) => (event.id === undefined || t.id === event.id ? { ...t, open: false } : t))
    case 'remove':
      return event.id === undefined ? [] : toasts.filter((t) => t.id !== event.id)
  }
}

type Listener = (toasts: readonly Toast[]) => void

/** The app's one toast queue; `toast()` adds to it from anywhere, the Toaster renders it. */
export class ToastQueue {
  private toasts: Toast[] = []
  private readonly listeners = new Set<Listener>()
  private readonly removals = new Map<string, ReturnType<typeof setTimeout>>()
  private counter = 0
  private past: readonly PastNotification[] = []

  get current(): readonly Toast[] {
    return this.toasts
  }

  /** The notifications of this session, newest first; a new array only when one is added. */
  get history(): readonly PastNotification[] {
    return this.past
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  show(input: { title?: string; description?: string; action?: ToastAction; variant?: ToastVariant; duration?: number }): string {
    const id = String(++this.counter)
    const notification = { id, title: input.title, description: input.description, variant: input.variant ?? 'default', at: Date.now() }
    this.past = [notification, ...this.past].slice(0, NOTIFICATION_HISTORY_LIMIT)
    this.dispatch({
      type: 'add',
      toast: {
        id,
        title: input.title,
        description: input.description,
        action: input.action,
        variant: input.variant ?? 'default',
        duration: input.duration ?? TOAST_DURATION_MS,
        open: true,
      },
    })
    return id
  }

  update(id: string, patch: Partial<Omit<Toast, 'id'>>): void {
    this.dispatch({ type: 'update', toast: { ...patch, id } })
  }

  dismiss(id?: string): void {
    const ids = id === undefined ? this.toasts.map((t) => t.id) : [id]
    for (const toastId of ids) this.scheduleRemoval(toastId)
    this.dispatch({ type: 'dismiss', id })
  }

  remove(id?: string): void {
    this.dispatch({ type: 'remove', id })
  }

  private scheduleRemoval(id: string): void {
    if (this.removals.has(id)) return
    const timer = setTimeout(() => {
      this.removals.delete(id)
      this.remove(id)
    }, TOAST_REMOVE_DELAY_MS)
    this.removals.set(id, timer)
  }

  private dispatch(event: ToastEvent): void {
    this.toasts = toastReducer(this.toasts, event)
    for (const listener of this.listeners) listener(this.toasts)
  }
}

export const toasts = new ToastQueue()

export function toast(input: Parameters<ToastQueue['show']>[0]): string {
  return toasts.show(input)
}
