import type { KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react'
import { useEffect, useId, useRef, useState } from 'react'

export interface MenuItem {
  label: string
  /** shown on the right, e.g. Ctrl+B */
  shortcut?: string
  icon?: ReactNode
  disabled?: boolean
  onSelect: () => void
}

/** `custom` renders its own controls (colour swatches); give them role="menuitem" and call `close` when done. */
export type MenuEntry = MenuItem | 'separator' | { heading: string } | { custom: (close: () => void) => ReactNode }

/** A menu's items, or a function that makes them when the menu opens (items that ask the workbook whether they apply cost nothing until then). */
export type MenuEntries = MenuEntry[] | (() => MenuEntry[])

interface MenuProps {
  /** the button's content */
  label: ReactNode
  /** the button's accessible name when its content is an icon */
  ariaLabel?: string
  title?: string
  entries: MenuEntries
  buttonClassName?: string
  align?: 'left' | 'right'
}

/**
 * A menu button: Enter, Space or ArrowDown opens it, arrows move between items, Escape closes it
 * and returns focus to the button, a click outside closes it.
 */
export function Menu({ label, ariaLabel, title, entries, buttonClassName, align = 'left' }: MenuProps) {
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const id = useId()

  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    const first = menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')
    first?.focus()
    return () => document.removeEventListener('pointerdown', onDown)
  }, [open])

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [])

  const onMenuKey = (e: ReactKeyboardEvent) => {
    const list = items()
    const index = list.indexOf(document.activeElement as HTMLElement)
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      list[(index + 1) % list.length]?.focus()
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      list[(index - 1 + list.length) % list.length]?.focus()
    } else if (e.key === 'Home') {
      e.preventDefault()
      list[0]?.focus()
    } else if (e.key === 'End') {
      e.preventDefault()
      list.at(-1)?.focus()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
      buttonRef.current?.focus()
    } else if (e.key === 'Tab') {
      setOpen(false)
    }
  }

  return (
    <div className="menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName ?? 'menu-button'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={ariaLabel}
        title={title}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault()
            setOpen(true)
          }
        }}
      >
        {label}
      </button>
      {open && (
        <div ref={menuRef} id={id} role="menu" className={`menu-popup menu-popup-${align}`} onKeyDown={onMenuKey}>
          {(typeof entries === 'function' ? entries() : entries).map((entry, i) => {
            if (entry === 'separator') return <div key={i} role="separator" className="menu-separator" />
            if ('heading' in entry) {
              return (
                <div key={i} className="menu-heading" role="presentation">
                  {entry.heading}
                </div>
              )
            }
            if ('custom' in entry) {
              return (
                <div key={i}>
                  {entry.custom(() => {
                    setOpen(false)
                    buttonRef.current?.focus()
                  })}
                </div>
              )
            }
            return (
              <button
                key={i}
                type="button"
                role="menuitem"
                className="menu-item"
                disabled={entry.disabled}
                onClick={() => {
                  setOpen(false)
                  buttonRef.current?.focus()
                  entry.onSelect()
                }}
              >
                {entry.icon && <span className="menu-item-icon">{entry.icon}</span>}
                <span className="menu-item-label">{entry.label}</span>
                {entry.shortcut && <span className="menu-item-shortcut">{entry.shortcut}</span>}
              </button>
            )
          })}
        </div>
      )}
    </div>
  )
}
