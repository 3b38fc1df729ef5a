import type { AiModelOption } from '@finsheet/contracts'
import { AI_PROVIDER_LABELS, AI_PROVIDERS } from '@finsheet/contracts'
import { ChevronDown } from 'lucide-react'
import type { KeyboardEvent as ReactKeyboardEvent } from 'react'
import { useEffect, useId, useRef, useState } from 'react'
import type { ModelList } from './assistant-api'
import { MODELS_LOADING, NO_MODELS } from './texts'

interface ModelPickerProps {
  models: ModelList | null
  value: string | null
  onChange(value: string): void
}

/** The models by provider, in the picker's order: Anthropic, OpenAI, Google Vertex AI, compatible servers, local. */
export function modelGroups(models: readonly AiModelOption[]): { provider: AiModelOption['provider']; label: string; models: AiModelOption[] }[] {
  return AI_PROVIDERS.map((provider) => ({ provider, label: AI_PROVIDER_LABELS[provider], models: models.filter((model) => model.provider === provider) })).filter(
    (group) => group.models.length > 0,
  )
}

/**
 * The model picker: a button showing the chosen model and a list grouped by provider, each model
 * with its tier badge and description; models the service cannot use are shown disabled with why.
 */
export function ModelPicker({ models, value, onChange }: ModelPickerProps) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState<string | null>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const listId = useId()

  const options = models?.models ?? []
  const usable = options.filter((model) => model.available)
  const chosen = options.find((model) => model.value === value)

  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    listRef.current?.focus()
    return () => document.removeEventListener('pointerdown', onDown)
  }, [open])

  useEffect(() => {
    if (!open || !active) return
    listRef.current?.querySelector(`[data-value="${CSS.escape(active)}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [open, active])

  if (!models) {
    return (
      <div className="model-picker">
        <button type="button" className="model-picker-button" disabled aria-label="Model">
          {MODELS_LOADING}
        </button>
      </div>
    )
  }
  if (options.length === 0) {
    return (
      <div className="model-picker">
        <button type="button" className="model-picker-button" disabled aria-label="Model">
          {NO_MODELS}
        </button>
      </div>
    )
  }

  const choose = (model: AiModelOption) => {
    if (!model.available) return
    onChange(model.value)
    setOpen(false)
    buttonRef.current?.focus()
  }

  const onListKey = (e: ReactKeyboardEvent) => {
    const index = usable.findIndex((model) => model.value === active)
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const step = e.key === 'ArrowDown' ? 1 : -1
      setActive(usable[(index + step + usable.length) % usable.length]?.value ?? null)
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault()
      setActive((e.key === 'Home' ? usable[0] : usable.at(-1))?.value ?? null)
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      const model = usable[index]
      if (model) choose(model)
    } else if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
      buttonRef.current?.focus()
    } else if (e.key === 'Tab') setOpen(false)
  }

  return (
    <div className="model-picker" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="model-picker-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`Model: ${chosen?.label ?? 'none chosen'}`}
        onClick={() => {
          setActive(chosen?.available ? chosen.value : (usable[0]?.value ?? null))
          setOpen((v) => !v)
        }}
      >
        <span className="model-picker-label">{chosen?.label ?? 'Choose a model'}</span>
        {chosen && <span className={`tier-badge tier-${chosen.tier}`}>{chosen.tier}</span>}
        <ChevronDown size={14} aria-hidden="true" />
      </button>
      {models.fallback && <p className="model-picker-note">The model list could not be loaded: these are the built-in models.</p>}
      {open && (
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Models"
          tabIndex={-1}
          className="model-picker-list"
          aria-activedescendant={active ? `${listId}-${active}` : undefined}
          onKeyDown={onListKey}
        >
          {modelGroups(options).map((group) => (
            <div key={group.provider} role="group" aria-labelledby={`${listId}-${group.provider}`} className="model-group">
              <div id={`${listId}-${group.provider}`} className="model-group-label" role="presentation">
                {group.label}
              </div>
              {group.models.map((model) => (
                <div
                  key={model.value}
                  id={`${listId}-${model.value}`}
                  data-value={model.value}
                  role="option"
                  aria-label={model.label}
                  aria-describedby={`${listId}-${model.value}-about`}
                  aria-selected={model.value === value}
                  aria-disabled={!model.available}
                  className={`model-option ${model.value === active ? 'active' : ''} ${model.available ? '' : 'unavailable'}`}
                  onPointerEnter={() => model.available && setActive(model.value)}
                  onClick={() => choose(model)}
                >
                  <span className="model-option-head">
                    <span className="model-option-label">{model.label}</span>
                    <span className={`tier-badge tier-${model.tier}`}>{model.tier}</span>
                  </span>
                  <span id={`${listId}-${model.value}-about`} className="model-option-about">
                    <span className="model-option-description">
                      {model.tier}: {model.description}
                    </span>
                    {!model.available && <span className="model-option-reason">{model.unavailableReason ?? 'Not configured on this server'}</span>}
                  </span>
                </div>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
