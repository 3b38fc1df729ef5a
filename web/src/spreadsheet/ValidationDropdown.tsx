import { useEffect, useRef, useState } from 'react'

interface ValidationDropdownProps {
  /** the selected cell's address, for the labels */
  address: string
  /** the list's items; null when the cell has no dropdown */
  items: string[] | null
  /** the cell's current text, marked in the list */
  current: string
  open: boolean
  onOpen(): void
  /** closes the list; the grid takes the keyboard back */
  onClose(): void
  onChoose(item: string): void
  /** the input message of the cell's rule, shown while the list is closed */
  message: { title: string; message: string } | null
}

/**
 * What data validation adds beside the selected cell, inside the grid's overlay (which moves with the
 * cell): a list's dropdown arrow and its list, and the rule's input message as a note.
 */
export function ValidationDropdown({ address, items, current, open, onOpen, onClose, onChoose, message }: ValidationDropdownProps) {
  return (
    // The overlay is as wide as the editor's text; this box is as wide as the cell (the overlay's min-width).
    <div className="validation-anchor">
      {items !== null && (
        <button
          type="button"
          className="validation-arrow"
          aria-label={`Choose a value for ${address}`}
          aria-haspopup="listbox"
          aria-expanded={open}
          tabIndex={-1}
          onPointerDown={(event) => {
            // the grid underneath would take the press as a new selection
            event.stopPropagation()
            event.preventDefault()
          }}
          onClick={() => (open ? onClose() : onOpen())}
        >
          ▾
        </button>
      )}
      {items !== null && open && <ValidationList address={address} items={items} current={current} onClose={onClose} onChoose={onChoose} />}
      {message && !open && (
        <div className="validation-message" role="tooltip">
          {message.title && <strong>{message.title}</strong>}
          {message.message && <span>{message.message}</span>}
        </div>
      )}
    </div>
  )
}

function ValidationList({ address, items, current, onClose, onChoose }: Pick<ValidationDropdownProps, 'address' | 'items' | 'current' | 'onClose' | 'onChoose'> & { items: string[] }) {
  const listRef = useRef<HTMLUListElement>(null)
  const [index, setIndex] = useState(() => Math.max(0, items.findIndex((item) => item.toUpperCase() === current.toUpperCase())))
  useEffect(() => {
    listRef.current?.focus({ preventScroll: true })
  }, [])
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [index])
  const id = `validation-list-${address}`
  return (
    <ul
      ref={listRef}
      id={id}
      className="validation-list"
      role="listbox"
      aria-label={`Values for ${address}`}
      tabIndex={0}
      aria-activedescendant={items.length > 0 ? `${id}-${index}` : undefined}
      onPointerDown={(event) => event.stopPropagation()}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onClose()
      }}
      onKeyDown={(event) => {
        event.stopPropagation()
        if (event.key === 'ArrowDown') setIndex((at) => Math.min(items.length - 1, at + 1))
        else if (event.key === 'ArrowUp') setIndex((at) => Math.max(0, at - 1))
        else if (event.key === 'Home') setIndex(0)
        else if (event.key === 'End') setIndex(items.length - 1)
        else if (event.key === 'Enter' || event.key === 'Tab') {
          if (items[index] !== undefined) onChoose(items[index])
          else onClose()
        } else if (event.key === 'Escape') onClose()
        else return
        event.preventDefault()
      }}
    >
      {items.length === 0 && <li className="validation-empty">The list is empty</li>}
      {items.map((item, at) => (
        <li
          key={`${at}-${item}`}
          id={`${id}-${at}`}
          data-index={at}
          role="option"
          aria-selected={at === index}
          className={at === index ? 'selected' : undefined}
          onPointerEnter={() => setIndex(at)}
          onClick={() => onChoose(item)}
        >
          {item}
        </li>
      ))}
    </ul>
  )
}
