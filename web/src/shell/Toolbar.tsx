import {
  AlignCenter,
  AlignLeft,
  AlignRight,
  Bold,
  DecimalsArrowLeft,
  DecimalsArrowRight,
  DollarSign,
  FileUp,
  Merge,
  Italic,
  Palette,
  Percent,
  Printer,
  Redo2,
  Underline,
  Undo2,
} from 'lucide-react'
import type { ReactNode } from 'react'
import type { StylePatch } from '@finsheet/contracts'
import type { CellStyle, HorizontalAlign } from '../grid/types'
import { DEFAULT_FONT_FAMILY, DEFAULT_FONT_SIZE } from '../grid/types'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { Menu } from '../ui/Menu'
import { toast } from '../toasts/toast-store'
import { adjustDecimals, CURRENCY_FORMAT, NUMBER_FORMATS, PERCENT_FORMAT } from '../workbook/number-formats'

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

/** The formatting toolbar of the spreadsheet screen; every control styles the selected cells. */
export function Toolbar({ onImport }: { onImport(): void }) {
  const [state, workspace] = useWorkspace()
  const { store, sheet, selection } = state
  const style: CellStyle = (store && store.getStyle(sheet, selection.active)) || {}
  const format = store?.getFormat(sheet, selection.active) ?? null
  const disabled = !store
  const setStyle = (patch: StylePatch) => {
    workspace.styleSelection(patch)
    workspace.focusGrid()
  }
  const setFormat = (value: string | null) => {
    workspace.formatSelection(value)
    workspace.focusGrid()
  }
  const align = (value: HorizontalAlign) => setStyle({ align: style.align === value ? undefined : value })
  const shown = store ? store.getDisplay(sheet, selection.active) : ''
  const merged = store?.sheet(sheet)?.merges.at(selection.active) !== undefined
  const canMerge = store !== null

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
      <ToolButton label={`Undo${workspace.undoLabel ? ` ${workspace.undoLabel}` : ''}`} onClick={() => workspace.undo()} disabled={!workspace.canUndo}>
        <Undo2 size={16} />
      </ToolButton>
      <ToolButton label={`Redo${workspace.redoLabel ? ` ${workspace.redoLabel}` : ''}`} onClick={() => workspace.redo()} disabled={!workspace.canRedo}>
        <Redo2 size={16} />
      </ToolButton>
      <ToolButton label="Print" onClick={() => window.print()}>
        <Printer size={16} />
      </ToolButton>
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
      <ToolButton label="Bold (Ctrl+B)" pressed={!!style.bold} onClick={() => setStyle({ bold: !style.bold })} disabled={disabled}>
        <Bold size={16} />
      </ToolButton>
      <ToolButton label="Italic (Ctrl+I)" pressed={!!style.italic} onClick={() => setStyle({ italic: !style.italic })} disabled={disabled}>
        <Italic size={16} />
      </ToolButton>
      <ToolButton label="Underline (Ctrl+U)" pressed={!!style.underline} onClick={() => setStyle({ underline: !style.underline })} disabled={disabled}>
        <Underline size={16} />
      </ToolButton>
      <span className="toolbar-separator" />
      <ToolButton label="Align left" pressed={style.align === 'left'} onClick={() => align('left')} disabled={disabled}>
        <AlignLeft size={16} />
      </ToolButton>
      <ToolButton label="Align center" pressed={style.align === 'center'} onClick={() => align('center')} disabled={disabled}>
        <AlignCenter size={16} />
      </ToolButton>
      <ToolButton label="Align right" pressed={style.align === 'right'} onClick={() => align('right')} disabled={disabled}>
        <AlignRight size={16} />
      </ToolButton>
      <ToolButton
        label={merged ? 'Unmerge cells' : 'Merge & center'}
        pressed={merged}
        onClick={() => {
          try {
            workspace.toggleMerge()
          } catch (error) {
            toast({ title: 'Error', description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
          }
          workspace.focusGrid()
        }}
        disabled={disabled || !canMerge}
      >
        <Merge size={16} />
      </ToolButton>
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
        entries={[
          { label: 'Bold', shortcut: 'Ctrl+B', onSelect: () => setStyle({ bold: !style.bold }) },
          { label: 'Italic', shortcut: 'Ctrl+I', onSelect: () => setStyle({ italic: !style.italic }) },
          { label: 'Underline', shortcut: 'Ctrl+U', onSelect: () => setStyle({ underline: !style.underline }) },
          'separator',
          { heading: 'Font colour' },
          { custom: swatches(FONT_COLORS, (value) => setStyle({ color: value }), 'Font colour') },
          { heading: 'Highlight' },
          { custom: swatches(HIGHLIGHT_COLORS, (value) => setStyle({ fill: value }), 'Highlight') },
          'separator',
          { label: 'Clear formatting', onSelect: () => setStyle({ bold: null, italic: null, underline: null, color: null, fill: null, align: null, fontFamily: null, fontSize: null }) },
        ]}
      />
      <span className="toolbar-separator" />
      <ToolButton label="Currency format" pressed={format === CURRENCY_FORMAT} onClick={() => setFormat(format === CURRENCY_FORMAT ? null : CURRENCY_FORMAT)} disabled={disabled}>
        <DollarSign size={16} />
      </ToolButton>
      <ToolButton label="Percent format" pressed={format === PERCENT_FORMAT} onClick={() => setFormat(format === PERCENT_FORMAT ? null : PERCENT_FORMAT)} disabled={disabled}>
        <Percent size={16} />
      </ToolButton>
      <ToolButton label="Decrease decimals" onClick={() => setFormat(adjustDecimals(format, -1, shown))} disabled={disabled}>
        <DecimalsArrowLeft size={16} />
      </ToolButton>
      <ToolButton label="Increase decimals" onClick={() => setFormat(adjustDecimals(format, 1, shown))} disabled={disabled}>
        <DecimalsArrowRight size={16} />
      </ToolButton>
      <Menu
        label={<span className="tool-text">123</span>}
        ariaLabel="Number format"
        title="Number format"
        buttonClassName="tool-button"
        entries={NUMBER_FORMATS.map((f) => ({
          label: f.label,
          shortcut: f.example,
          onSelect: () => setFormat(f.format),
        }))}
      />
      <span className="toolbar-spacer" />
      <button type="button" className="button toolbar-import" onClick={onImport}>
        <FileUp size={16} aria-hidden="true" /> Import Document
      </button>
    </div>
  )
}
