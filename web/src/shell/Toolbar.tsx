import {
  AlignCenter,
  AlignLeft,
  AlignRight,
  Bold,
  Bot,
  DecimalsArrowLeft,
  DecimalsArrowRight,
  DollarSign,
  FileUp,
  Grid2x2,
  Merge,
  Italic,
  ListFilter,
  Palette,
  Percent,
  Printer,
  Redo2,
  Underline,
  Undo2,
  WrapText,
} from 'lucide-react'
import type { ReactNode } from 'react'
import type { ActionContext, AssistantControls } from '../actions/action-registry'
import { isActive, isEnabled, menuItem } from '../actions/action-registry'
import { spreadsheetActions } from '../actions/spreadsheet-actions'
import type { StylePatch } from '@finsheet/contracts'
import type { CellStyle } from '../grid/types'
import { DEFAULT_FONT_FAMILY, DEFAULT_FONT_SIZE } from '../grid/types'
import { BORDER_CHOICES } from '../spreadsheet/borders'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { Menu } from '../ui/Menu'
import { NUMBER_FORMATS } from '../workbook/number-formats'

export const FONT_FAMILIES = ['Arial', 'Times New Roman', 'Roboto', 'Calibri'] as const
export const FONT_SIZES = [10, 11, 12, 14, 16] as const
export const FONT_COLORS = [
  { name: 'Black', value: '#1f2328' },
  { name: 'Dark gray', value: '#5f6368' },
  { name: 'Red', value: '#c62828' },
  { name: 'Orange', value: '#e65100' },
  { name: 'Green', value: '#2e7d32' },
  { name: 'Blue', value: '#1565c0' },
  { name: 'Purple', value: '#6a1b9a' },
  { name: 'Teal', value: '#00796b' },
] as const
export const HIGHLIGHT_COLORS = [
  { name: 'Light yellow', value: '#fff8c5' },
  { name: 'Light green', value: '#e6f4ea' },
  { name: 'Light blue', value: '#e8f0fe' },
  { name: 'Light red', value: '#fce8e6' },
  { name: 'Light orange', value: '#feefe3' },
  { name: 'Light purple', value: '#f3e8fd' },
  { name: 'Light gray', value: '#f1f3f4' },
  { name: 'Light teal', value: '#e0f2f1' },
] as const

function ToolButton({ label, pressed, onClick, children, disabled }: { label: string; pressed?: boolean; onClick(): void; children: ReactNode; disabled?: boolean }) {
  return (
    <button
      type="button"
      className={`tool-button ${pressed ? 'pressed' : ''}`}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // keep the grid focused so the keyboard keeps working after a click
      onPointerDown={(e) => e.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  )
}

/** A toolbar button for an action of the registry: its name, pressed and enabled states, and run. */
function ActionButton({ id, ctx, children }: { id: string; ctx: ActionContext; children: ReactNode }) {
  const action = spreadsheetActions.get(id)
  const label = action.buttonLabel?.(ctx) ?? action.title?.(ctx) ?? action.label
  return (
    <ToolButton
      label={label}
      pressed={action.active ? isActive(action, ctx) : undefined}
      disabled={!isEnabled(action, ctx)}
      onClick={() => {
        action.run?.(ctx)
        ctx.workspace.focusGrid()
      }}
    >
      {children}
    </ToolButton>
  )
}

/** The formatting toolbar of the spreadsheet screen; every control styles the selected cells. */
export function Toolbar({ onImport, assistant }: { onImport(): void; assistant?: AssistantControls }) {
  const [state, workspace] = useWorkspace()
  const { store, sheet, selection } = state
  const style: CellStyle = (store && store.getStyle(sheet, selection.active)) || {}
  const disabled = !store
  const ctx: ActionContext = { workspace, grid: null, editor: null, go: () => undefined, key: null, assistant }
  const assistantAction = spreadsheetActions.get('toggle-assistant')
  const formatCells = spreadsheetActions.get('format-cells')
  const setStyle = (patch: StylePatch) => {
    workspace.styleSelection(patch)
    workspace.focusGrid()
  }
  const setFormat = (value: string | null) => {
    workspace.formatSelection(value)
    workspace.focusGrid()
  }
  const then = () => workspace.focusGrid()

  const swatches = (colors: readonly { name: string; value: string }[], apply: (value: string | undefined) => void, kind: string) => (close: () => void) => (
    <div className="swatches" role="group" aria-label={kind}>
      {colors.map((c) => (
        <button
          key={c.value}
          type="button"
          role="menuitem"
          className="swatch"
          style={{ background: c.value }}
          aria-label={`${kind}: ${c.name}`}
          title={c.name}
          onClick={() => {
            apply(c.value)
            close()
          }}
        />
      ))}
      <button
        type="button"
        role="menuitem"
        className="swatch swatch-none"
        aria-label={`${kind}: none`}
        title="None"
        onClick={() => {
          apply(undefined)
          close()
        }}
      />
    </div>
  )

  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      <ActionButton id="undo" ctx={ctx}>
        <Undo2 size={16} />
      </ActionButton>
      <ActionButton id="redo" ctx={ctx}>
        <Redo2 size={16} />
      </ActionButton>
      <ActionButton id="print" ctx={ctx}>
        <Printer size={16} />
      </ActionButton>
      <span className="toolbar-separator" />
      <select
        className="toolbar-select"
        aria-label="Font family"
        value={style.fontFamily ?? DEFAULT_FONT_FAMILY}
        disabled={disabled}
        onChange={(e) => setStyle({ fontFamily: e.target.value === DEFAULT_FONT_FAMILY ? undefined : e.target.value })}
      >
        {FONT_FAMILIES.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      <select
        className="toolbar-select narrow"
        aria-label="Font size"
        value={style.fontSize ?? DEFAULT_FONT_SIZE}
        disabled={disabled}
        onChange={(e) => {
          const size = Number(e.target.value)
          setStyle({ fontSize: size === DEFAULT_FONT_SIZE ? undefined : size })
        }}
      >
        {FONT_SIZES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <span className="toolbar-separator" />
      <ActionButton id="bold" ctx={ctx}>
        <Bold size={16} />
      </ActionButton>
      <ActionButton id="italic" ctx={ctx}>
        <Italic size={16} />
      </ActionButton>
      <ActionButton id="underline" ctx={ctx}>
        <Underline size={16} />
      </ActionButton>
      <span className="toolbar-separator" />
      <ActionButton id="align-left" ctx={ctx}>
        <AlignLeft size={16} />
      </ActionButton>
      <ActionButton id="align-center" ctx={ctx}>
        <AlignCenter size={16} />
      </ActionButton>
      <ActionButton id="align-right" ctx={ctx}>
        <AlignRight size={16} />
      </ActionButton>
      <ActionButton id="merge" ctx={ctx}>
        <Merge size={16} />
      </ActionButton>
      <ActionButton id="wrap" ctx={ctx}>
        <WrapText size={16} />
      </ActionButton>
      <Menu
        label={<Grid2x2 size={16} aria-hidden="true" />}
        ariaLabel="Borders"
        title="Borders"
        buttonClassName="tool-button"
        entries={() => [
          ...BORDER_CHOICES.map(({ choice }) => menuItem(spreadsheetActions.get(`borders-${choice}`), ctx, then)),
          'separator',
          { heading: 'Vertical alignment' },
          menuItem(spreadsheetActions.get('align-top'), ctx, then),
          menuItem(spreadsheetActions.get('align-middle'), ctx, then),
          menuItem(spreadsheetActions.get('align-bottom'), ctx, then),
        ]}
      />
      <span className="toolbar-separator" />
      <Menu
        label={
          <>
            <Palette size={16} aria-hidden="true" />
            <span className="color-bar" style={{ background: style.color ?? '#1f2328' }} />
          </>
        }
        ariaLabel="Format"
        title="Format"
        buttonClassName="tool-button"
        entries={() => [
          menuItem(spreadsheetActions.get('bold'), ctx, then),
          menuItem(spreadsheetActions.get('italic'), ctx, then),
          menuItem(spreadsheetActions.get('underline'), ctx, then),
          menuItem(spreadsheetActions.get('strike'), ctx, then),
          'separator',
          { heading: 'Font colour' },
          { custom: swatches(FONT_COLORS, (value) => setStyle({ color: value }), 'Font colour') },
          { heading: 'Highlight' },
          { custom: swatches(HIGHLIGHT_COLORS, (value) => setStyle({ fill: value }), 'Highlight') },
          'separator',
          menuItem(spreadsheetActions.get('clear-formatting'), ctx, then),
        ]}
      />
      <span className="toolbar-separator" />
      <ActionButton id="currency" ctx={ctx}>
        <DollarSign size={16} />
      </ActionButton>
      <ActionButton id="percent" ctx={ctx}>
        <Percent size={16} />
      </ActionButton>
      <ActionButton id="decrease-decimals" ctx={ctx}>
        <DecimalsArrowLeft size={16} />
      </ActionButton>
      <ActionButton id="increase-decimals" ctx={ctx}>
        <DecimalsArrowRight size={16} />
      </ActionButton>
      <Menu
        label={<span className="tool-text">123</span>}
        ariaLabel="Number format"
        title="Number format"
        buttonClassName="tool-button"
        entries={() => [
          ...NUMBER_FORMATS.map((f) => ({
            label: f.label,
            shortcut: f.example,
            onSelect: () => setFormat(f.format),
          })),
          'separator' as const,
          { label: 'More formats…', shortcut: 'Ctrl+1', onSelect: () => formatCells.run?.(ctx) },
        ]}
      />
      <ActionButton id="toggle-filter" ctx={ctx}>
        <ListFilter size={16} />
      </ActionButton>
      <span className="toolbar-spacer" />
      <button type="button" className="button toolbar-import" onClick={onImport}>
        <FileUp size={16} aria-hidden="true" /> Import Document
      </button>
      {assistant && (
        <button
          type="button"
          className={`button toolbar-assistant ${assistant.open ? 'pressed' : ''}`}
          aria-pressed={assistant.open}
          title={assistantAction.buttonLabel?.(ctx)}
          onClick={() => assistantAction.run?.(ctx)}
        >
          <Bot size={16} aria-hidden="true" /> AI Assistant
        </button>
      )}
    </div>
  )
}
