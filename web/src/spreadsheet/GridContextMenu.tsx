import { useEffect, useRef } from 'react'

export interface ContextMenuItem {
  label: string
  shortcut?: string
  disabled?: boolean
  onSelect(): void
}

interface GridContextMenuProps {
  /** where it opens, relative to the viewport */
  x: number
  y: number
  items: (ContextMenuItem | 'separator')[]
  onClose(): void
}

/** The grid's right-click (or Shift+F10) menu: arrows move, Enter chooses, Escape closes. */
export function GridContextMenu({ x, y, items, onClose }: GridContextMenuProps) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus()
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose()
    }
    document.addEventListener('pointerdown', onDown, true)
    return () => document.removeEventListener('pointerdown', onDown, true)
  }, [onClose])

  // keep the menu on screen
  const left = Math.min(x, window.innerWidth - 240)
  const top = Math.min(y, window.innerHeight - items.length * 32 - 16)

  return (
    <div
      ref={ref}
      role="menu"
      aria-label="Cell actions"
      className="menu-popup context-menu"
      style={{ position: 'fixed', left, top }}
      onKeyDown={(e) => {
        const list = Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [])
        const index = list.indexOf(document.activeElement as HTMLElement)
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault()
          const step = e.key === 'ArrowDown' ? 1 : -1
          list[(index + step + list.length) % list.length]?.focus()
        } else if (e.key === 'Escape' || e.key === 'Tab') {
          e.preventDefault()
          onClose()
        }
      }}
    >
      {items.map((item, i) =>
        item === 'separator' ? (
          <div key={i} role="separator" className="menu-separator" />
        ) : (
          <button
            key={item.label}
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={item.disabled}
            onClick={() => {
              onClose()
              item.onSelect()
            }}
          >
            <span className="menu-item-label">{item.label}</span>
            {item.shortcut && <span className="menu-item-shortcut">{item.shortcut}</span>}
          </button>
        ),
      )}
    </div>
  )
}
