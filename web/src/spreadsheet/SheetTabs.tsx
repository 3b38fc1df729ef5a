import { Eraser, MoreVertical, Plus } from 'lucide-react'
import { useState } from 'react'
import { sheetNameProblem } from '@finsheet/workbook/model'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Menu } from '../ui/Menu'

interface SheetTabsProps {
  sheets: readonly string[]
  active: string
  onSelect(name: string): void
  onAdd(): void
  onRename(from: string, to: string): void
  onDelete(name: string): void
  onMove(name: string, index: number): void
  onClearEverything(): void
  /** hides the sheet's tab (absent: no Hide entry) */
  onHide?(name: string): void
  /** opens Unhide sheet…, enabled while a sheet is hidden */
  onUnhide?(): void
  hiddenCount?: number
  /** each sheet's tab colour, drawn along the tab's foot */
  tabColors?: Readonly<Record<string, string | undefined>>
  /** Tab color: sets (null removes) the active sheet's tab colour (absent: no entry) */
  onTabColor?(name: string, color: string | null): void
}

/** Excel's standard tab colours. */
export const TAB_COLORS = [
  { name: 'Red', value: '#C00000' },
  { name: 'Orange', value: '#FFC000' },
  { name: 'Yellow', value: '#FFFF00' },
  { name: 'Light green', value: '#92D050' },
  { name: 'Green', value: '#00B050' },
  { name: 'Light blue', value: '#00B0F0' },
  { name: 'Blue', value: '#0070C0' },
  { name: 'Dark blue', value: '#002060' },
  { name: 'Purple', value: '#7030A0' },
  { name: 'Gray', value: '#808080' },
] as const

/**
 * One tab per sheet, the active one highlighted; double click renames; + adds the next SheetN. Deleting
 * a sheet asks first (and can be undone); Clear everything, which erases far more, has a menu of its
 * own at the other end of the bar, away from the sheet's own actions.
 */
export function SheetTabs({ sheets, active, onSelect, onAdd, onRename, onDelete, onMove, onClearEverything, onHide, onUnhide, hiddenCount = 0, tabColors, onTabColor }: SheetTabsProps) {
  const [dragging, setDragging] = useState<string | null>(null)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)

  const startRename = (name: string) => {
    setRenaming(name)
    setDraft(name)
    setProblem(null)
  }
  const finishRename = () => {
    if (renaming === null) return
    const next = draft.trim()
    const issue = sheetNameProblem(next, sheets, renaming)
    if (issue) {
      setProblem(issue)
      return
    }
    onRename(renaming, next)
    setRenaming(null)
  }

  return (
    <div className="sheet-tabs">
      <button type="button" className="icon-button sheet-add" aria-label="Add sheet" title="Add sheet" onClick={onAdd}>
        <Plus size={16} />
      </button>
      <div role="tablist" aria-label="Sheets" className="sheet-tab-list">
        {sheets.map((name) =>
          renaming === name ? (
            <span key={name} className="sheet-tab sheet-tab-editing">
              <input
                autoFocus
                aria-label={`Rename sheet ${name}`}
                aria-invalid={problem !== null}
                value={draft}
                onChange={(e) => {
                  setDraft(e.target.value)
                  setProblem(null)
                }}
                onBlur={finishRename}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') finishRename()
                  if (e.key === 'Escape') setRenaming(null)
                }}
              />
              {problem && (
                <span role="alert" className="sheet-tab-problem">
                  {problem}
                </span>
              )}
            </span>
          ) : (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={name === active}
              className={`sheet-tab ${name === active ? 'active' : ''} ${dragging === name ? 'dragging' : ''}`}
              style={tabColors?.[name] ? { boxShadow: `inset 0 -4px 0 ${tabColors[name]}` } : undefined}
              data-tab-color={tabColors?.[name]}
              draggable
              onDragStart={(e) => {
                setDragging(name)
                e.dataTransfer.effectAllowed = 'move'
                e.dataTransfer.setData('text/plain', name)
              }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(e) => {
                if (dragging) e.preventDefault()
              }}
              onDrop={(e) => {
                e.preventDefault()
                if (dragging && dragging !== name) onMove(dragging, sheets.indexOf(name))
                setDragging(null)
              }}
              onClick={() => onSelect(name)}
              onDoubleClick={() => startRename(name)}
              onKeyDown={(e) => {
                if (e.key === 'F2') startRename(name)
              }}
              title="Double click to rename"
            >
              {name}
            </button>
          ),
        )}
      </div>
      <Menu
        label={<MoreVertical size={16} />}
        ariaLabel="Sheet options"
        title="Sheet options"
        buttonClassName="icon-button"
        entries={[
          { label: 'Rename sheet', shortcut: 'F2', onSelect: () => startRename(active) },
          { label: 'Move left', disabled: sheets.indexOf(active) === 0, onSelect: () => onMove(active, sheets.indexOf(active) - 1) },
          { label: 'Move right', disabled: sheets.indexOf(active) === sheets.length - 1, onSelect: () => onMove(active, sheets.indexOf(active) + 1) },
          { label: 'Delete sheet', disabled: sheets.length <= 1, onSelect: () => setDeleting(active) },
          ...(onHide ? [{ label: 'Hide sheet', disabled: sheets.length <= 1, onSelect: () => onHide(active) }] : []),
          ...(onUnhide ? [{ label: 'Unhide sheet…', disabled: hiddenCount === 0, onSelect: onUnhide }] : []),
          ...(onTabColor
            ? [
                { heading: 'Tab color' },
                {
                  custom: (close: () => void) => (
                    <div className="swatches" role="group" aria-label="Tab color">
                      {TAB_COLORS.map((color) => (
                        <button
                          key={color.value}
                          type="button"
                          role="menuitem"
                          className="swatch"
                          style={{ background: color.value }}
                          aria-label={`Tab color: ${color.name}`}
                          title={color.name}
                          onClick={() => {
                            onTabColor(active, color.value)
                            close()
                          }}
                        />
                      ))}
                      <button
                        type="button"
                        role="menuitem"
                        className="swatch swatch-none"
                        aria-label="Tab color: No color"
                        title="No color"
                        onClick={() => {
                          onTabColor(active, null)
                          close()
                        }}
                      />
                    </div>
                  ),
                },
              ]
            : []),
        ]}
      />
      <span className="sheet-tabs-divider" aria-hidden="true" />
      <Menu
        label={<Eraser size={16} aria-hidden="true" />}
        ariaLabel="Clear data"
        title="Clear data"
        buttonClassName="icon-button"
        align="right"
        entries={[{ label: 'Clear everything…', onSelect: onClearEverything }]}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ?? ''}?`}
        message={`${deleting ?? ''} and everything on it will be deleted; formulas on other sheets that read it show #REF!. Undo (Ctrl+Z) brings it back.`}
        confirmLabel="Delete"
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const name = deleting
          setDeleting(null)
          if (name !== null) onDelete(name)
        }}
      />
    </div>
  )
}
