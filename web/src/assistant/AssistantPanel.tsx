import { Bot, Settings, X } from 'lucide-react'
import type { KeyboardEvent as ReactKeyboardEvent, PointerEvent as ReactPointerEvent } from 'react'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { Menu } from '../ui/Menu'
import { selectionText } from './assistant-context'
import { PANEL_WIDTH } from './assistant-controller'
import { useAssistant } from './assistant-react'
import { MessageView, prefetchMarkdown } from './MessageView'
import { ModelPicker } from './ModelPicker'
import type { PromptInputHandle } from './PromptInput'
import { PromptInput } from './PromptInput'
import type { AssistantMode } from './texts'
import { AUTO_APPLY_SETTING, MODE_TEXTS, SUGGESTED_PROMPTS } from './texts'
import './assistant.css'

const RESIZE_STEP = 20

/**
 * The assistant beside the grid: its mode (Chat or Agent) with the mode's header and placeholder,
 * the model picker, the conversation with this workbook, what is selected in the grid, and the input.
 * The left edge resizes it (drag, or arrows when focused).
 */
export function AssistantPanel() {
  const [state, assistant] = useAssistant()
  const [workspaceState, workspace] = useWorkspace()
  const inputRef = useRef<PromptInputHandle>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const drag = useRef<{ x: number; width: number } | null>(null)
  const texts = MODE_TEXTS[state.mode]
  const selected = selectionText(workspaceState)
  const documentInUse = state.messages.length > 0 ? assistant.activeDocument() : null

  // the keyboard goes to the input when the panel opens; answers' Markdown renderer loads meanwhile
  useEffect(() => {
    inputRef.current?.focus()
    prefetchMarkdown()
  }, [])

  useEffect(() => {
    if (!state.draft) return
    inputRef.current?.fill(state.draft.text)
    assistant.takeDraft()
  }, [state.draft, assistant])

  // notices move aside so that they never cover the panel
  useEffect(() => {
    const root = window.document.documentElement
    root.style.setProperty('--assistant-panel-width', `${state.width}px`)
    return () => {
      root.style.removeProperty('--assistant-panel-width')
    }
  }, [state.width])

  // the newest message stays in view as it streams
  const last = state.messages.at(-1)
  useLayoutEffect(() => {
    const list = listRef.current
    if (list) list.scrollTop = list.scrollHeight
  }, [state.messages.length, last])

  const onResizeDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    drag.current = { x: e.clientX, width: state.width }
    e.currentTarget.setPointerCapture(e.pointerId)
  }
  const onResizeMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current) return
    assistant.setWidth(drag.current.width + (drag.current.x - e.clientX))
  }
  const onResizeKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault()
      assistant.setWidth(state.width + (e.key === 'ArrowLeft' ? RESIZE_STEP : -RESIZE_STEP))
    }
  }

  const close = () => {
    assistant.setOpen(false)
    workspace.focusGrid()
  }

  const modeEntry = (mode: AssistantMode) => ({
    label: `${MODE_TEXTS[mode].label}${state.mode === mode ? ' ✓' : ''}`,
    onSelect: () => {
      assistant.setMode(mode)
      inputRef.current?.focus()
    },
  })

  return (
    <aside className="assistant-panel" aria-label="AI assistant" style={{ width: state.width }}>
      <div
        className="assistant-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the assistant panel"
        aria-valuemin={PANEL_WIDTH.min}
        aria-valuemax={PANEL_WIDTH.max}
        aria-valuenow={state.width}
        tabIndex={0}
        onPointerDown={onResizeDown}
        onPointerMove={onResizeMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onResizeKey}
      />
      <header className="assistant-header">
        <div className="assistant-title">
          <Bot size={18} aria-hidden="true" />
          <div>
            <h2>{texts.header}</h2>
            <p>{texts.subtitle}</p>
          </div>
        </div>
        <div className="assistant-header-actions">
          <Menu label={texts.label} ariaLabel={`Mode: ${texts.label}`} buttonClassName="button small" align="right" entries={[modeEntry('chat'), modeEntry('agent')]} />
          <Menu
            label={<Settings size={15} aria-hidden="true" />}
            ariaLabel="Assistant settings"
            buttonClassName="icon-button"
            align="right"
            entries={[
              {
                custom: (closeMenu) => (
                  <button
                    type="button"
                    role="menuitemcheckbox"
                    aria-checked={state.autoApply}
                    className="menu-item"
                    onClick={() => {
                      assistant.setAutoApply(!state.autoApply)
                      closeMenu()
                    }}
                  >
                    <span className="menu-item-icon">{state.autoApply ? '✓' : ''}</span>
                    <span className="menu-item-label">{AUTO_APPLY_SETTING}</span>
                  </button>
                ),
              },
              'separator',
              { label: 'New conversation', disabled: state.sending || state.messages.length === 0, onSelect: () => assistant.clearConversation() },
            ]}
          />
          <button type="button" className="icon-button" aria-label="Close AI assistant" title="Close (Alt+A)" onClick={close}>
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      </header>
      <ModelPicker models={state.models} value={state.model} onChange={(value) => assistant.setModel(value)} />
      <div className="assistant-messages" ref={listRef} role="log" aria-label="Conversation" aria-busy={state.sending}>
        {state.messages.length === 0 ? (
          <div className="assistant-empty">
            <p>Try asking:</p>
            <ul aria-label="Suggested prompts">
              {SUGGESTED_PROMPTS.map((prompt) => (
                <li key={prompt}>
                  <button type="button" className="chip" onClick={() => assistant.suggest(prompt)}>
                    {prompt}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          state.messages.map((message) => <MessageView key={message.id} message={message} assistant={assistant} workbookId={state.workbookId} sending={state.sending} />)
        )}
      </div>
      {documentInUse && (
        <p className="assistant-document">
          <span>
            Asking about <strong>{documentInUse.name}</strong>
          </span>
          <button type="button" className="link-button" onClick={() => assistant.forgetDocument()}>
            Stop using it
          </button>
        </p>
      )}
      {selected && (
        <p className="assistant-selection">
          {selected}
        </p>
      )}
      <PromptInput
        ref={inputRef}
        placeholder={texts.placeholder}
        sending={state.sending}
        commands={SUGGESTED_PROMPTS}
        lastMessage={() => assistant.lastUserMessage()}
        onSend={(text) => void assistant.send(text)}
        onStop={() => assistant.stop()}
      />
    </aside>
  )
}

/** The round button that opens the panel while it is closed. */
export function AssistantLauncher() {
  const [state, assistant] = useAssistant()
  if (state.open) return null
  return (
    <button type="button" className="assistant-fab" aria-label="Open AI assistant" title="AI assistant (Alt+A)" onClick={() => assistant.setOpen(true)}>
      <Bot size={22} aria-hidden="true" />
    </button>
  )
}
