import { Send, Square } from 'lucide-react'
import type { KeyboardEvent as ReactKeyboardEvent, Ref } from 'react'
import { useEffect, useId, useImperativeHandle, useRef, useState } from 'react'
import { matchingPrompts } from './routing'

export interface PromptInputHandle {
  focus(): void
  /** puts text in the input, caret at the end */
  fill(text: string): void
}

interface PromptInputProps {
  placeholder: string
  sending: boolean
  /** what '/' offers */
  commands: readonly string[]
  /** the last message sent, for Up */
  lastMessage(): string | null
  onSend(text: string): void
  onStop(): void
  ref?: Ref<PromptInputHandle>
}

/**
 * The message input: Enter sends, Shift+Enter breaks the line, '/' opens the suggested commands
 * (arrows choose, Enter or a click takes one, Escape closes), Up in an empty input recalls the last
 * message. While an answer is on its way the send button becomes Stop.
 */
export function PromptInput({ placeholder, sending, commands, lastMessage, onSend, onStop, ref }: PromptInputProps) {
  const [value, setValue] = useState('')
  const [highlighted, setHighlighted] = useState(0)
  const [dismissed, setDismissed] = useState(false)
  const inputRef = useRef<HTMLTextAreaElement>(null)
  const listId = useId()

  const suggestions = dismissed ? [] : matchingPrompts(value, commands)
  const listOpen = suggestions.length > 0

  useImperativeHandle(ref, () => ({
    focus: () => inputRef.current?.focus(),
    fill: (text: string) => {
      setValue(text)
      setDismissed(false)
      requestAnimationFrame(() => {
        const input = inputRef.current
        if (!input) return
        input.focus()
        input.setSelectionRange(text.length, text.length)
      })
    },
  }))

  useEffect(() => setHighlighted(0), [value])

  // the input grows with its text, up to a few lines
  useEffect(() => {
    const input = inputRef.current
    if (!input) return
    input.style.height = 'auto'
    input.style.height = `${Math.min(input.scrollHeight, 160)}px`
  }, [value])

  const send = () => {
    if (sending || value.trim() === '') return
    onSend(value)
    setValue('')
  }

  const take = (command: string) => {
    setValue(command)
    setDismissed(true)
    inputRef.current?.focus()
  }

  const onKeyDown = (e: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return
    if (listOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault()
        const step = e.key === 'ArrowDown' ? 1 : -1
        setHighlighted((i) => (i + step + suggestions.length) % suggestions.length)
        return
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault()
        take(suggestions[highlighted] ?? suggestions[0])
        return
      }
      if (e.key === 'Escape') {
        e.preventDefault()
        e.stopPropagation()
        setDismissed(true)
        return
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault()
      send()
      return
    }
    if (e.key === 'ArrowUp' && value === '') {
      const last = lastMessage()
      if (last !== null) {
        e.preventDefault()
        setValue(last)
        requestAnimationFrame(() => inputRef.current?.setSelectionRange(last.length, last.length))
      }
    }
  }

  return (
    <form
      className="assistant-input"
      onSubmit={(e) => {
        e.preventDefault()
        send()
      }}
    >
      {listOpen && (
        <ul id={listId} role="listbox" aria-label="Suggested commands" className="assistant-commands">
          {suggestions.map((command, i) => (
            <li
              key={command}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === highlighted}
              className={i === highlighted ? 'active' : ''}
              onPointerDown={(e) => e.preventDefault()}
              onClick={() => take(command)}
            >
              {command}
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={inputRef}
        className="assistant-textarea"
        aria-label="Message"
        placeholder={placeholder}
        rows={1}
        value={value}
        role="combobox"
        aria-expanded={listOpen}
        aria-controls={listOpen ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={listOpen ? `${listId}-${highlighted}` : undefined}
        onChange={(e) => {
          setValue(e.target.value)
          if (!e.target.value.startsWith('/')) setDismissed(false)
          else if (e.target.value === '/') setDismissed(false)
        }}
        onKeyDown={onKeyDown}
      />
      {sending ? (
        <button type="button" className="icon-button assistant-send stop" aria-label="Stop" title="Stop" onClick={onStop}>
          <Square size={14} aria-hidden="true" />
        </button>
      ) : (
        <button type="submit" className="icon-button assistant-send" aria-label="Send" title="Send (Enter)" disabled={value.trim() === ''}>
          <Send size={15} aria-hidden="true" />
        </button>
      )}
    </form>
  )
}
