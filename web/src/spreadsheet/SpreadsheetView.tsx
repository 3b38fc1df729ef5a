import type { ClipboardEvent as ReactClipboardEvent, FocusEvent as ReactFocusEvent } from 'react'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ActionContext, GridControls } from '../actions/action-registry'
import { spreadsheetActions } from '../actions/spreadsheet-actions'
import type { CellPosition, CellRange } from '../grid/address'
import { cellAddress, rangeAddress } from '../grid/address'
import { isPointable } from '../grid/editor-state'
import { formulaReferences, isFormulaText } from '../grid/formula-editing'
import type { GridHandle } from '../grid/Grid'
import { Grid } from '../grid/Grid'
import type { NavigationContext } from '../grid/navigation'
import { GRID_COLORS, REFERENCE_COLORS } from '../grid/render'
import { describeConditionalLook } from '../grid/conditional-looks'
import type { Selection } from '../grid/selection'
import { rangeSelection, selectionRange } from '../grid/selection'
import type { DrawStats, RangeHighlight } from '../grid/types'
import type { EngineValue } from '../workbook/calc-engine'
import { cellMenuItems } from './cell-menu'
import { autoFitColumn, autoFitRow, copySelection, fillByHandle, fillDownAlongside, pasteSpecial, pasteText, selectionSummary } from './grid-actions'
import { FormatCellsDialog } from './FormatCellsDialog'
import { PasteSpecialDialog } from './PasteSpecialDialog'
import { GridContextMenu } from './GridContextMenu'
import type { FunctionSuggestion } from './FormulaAssist'
import { FormulaAssist, useFormulaAssist } from './FormulaAssist'
import { FormulaBar } from './FormulaBar'
import { GoToDialog } from './GoToDialog'
import { ToolDialogs } from './ToolDialogs'
import { DataTools } from './DataTools'
import { recordsFoundText } from './data-tools'
import { parseGoToReference } from './goto'
import { SheetTabs } from './SheetTabs'
import { isHidden, setCollapsed } from './sheet-layout'
import { StatusBar } from './StatusBar'
import { UnhideSheetDialog } from './UnhideSheetDialog'
import { dropdownItems, inputMessageAt, ruleAt } from './data-validation'
import { ValidationAlertDialog } from './ValidationAlertDialog'
import { ValidationDropdown } from './ValidationDropdown'
import { ChartEditor } from './ChartEditor'
import { useSheetChartFloats } from './SheetCharts'
import { ZOOM_STEP } from '../grid/geometry'
import { useCellEditor } from './use-cell-editor'
import { useGridKeymap } from './use-grid-keymap'
import { useGridPointer } from './use-grid-pointer'
import { useWorkspace } from './workspace-context'
import { traceSourceOf } from './workspace'
import { describeArrow, traceArrows as traceArrowsOf } from './trace-arrows'
import { toast } from '../toasts/toast-store'
import { linkAt, noteAt, openLink } from './cell-annotations'
import { NotePopup } from './NotePopup'
import { OpenedOnce } from '../ui/OpenedOnce'

interface SpreadsheetViewProps {
  /** the engine's function catalogue, for autocomplete */
  functions: readonly FunctionSuggestion[]
  onClearEverything(): void
  /** goes to another screen (absent where the spreadsheet is shown alone) */
  onGo?: ActionContext['go']
  /** hears every frame the grid draws (the benchmark's probe) */
  onDraw?: (stats: DrawStats) => void
}

const stay: ActionContext['go'] = () => undefined

/** Runs a layout change; a refused one (hiding the last shown sheet) says why instead of failing silently. */
function runLayoutChange(change: () => void): void {
  try {
    change()
  } catch (error) {
    toast({ title: 'Error', description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
  }
}

/**
 * The spreadsheet: the name box and fx bar, the grid with its in-cell editor, the sheet tabs and
 * the status bar. The edit itself, the keyboard and the mouse are hooks of their own (use-cell-editor,
 * use-grid-keymap, use-grid-pointer); the keys run the actions of the registry.
 */
export function SpreadsheetView({ functions, onClearEverything, onGo = stay, onDraw }: SpreadsheetViewProps) {
  const [state, workspace] = useWorkspace()
  const { store, sheet, selection, copy } = state
  const gridRef = useRef<GridHandle>(null)
  const cellInputRef = useRef<HTMLTextAreaElement>(null)
  const barRef = useRef<HTMLInputElement>(null)
  const listRef = useRef<HTMLUListElement>(null)
  const [suggestionIndex, setSuggestionIndex] = useState(0)
  const [contextMenu, setContextMenu] = useState<{ x: number; y: number } | null>(null)
  const [hovered, setHovered] = useState<CellPosition | null>(null)

  const model = store?.sheet(sheet)
  const source = model?.source
  const merges = source?.merges && source.merges.size > 0 ? source.merges : undefined
  // a selection touching merged cells covers them whole, and a merged area acts as its top-left cell
  const range = merges ? merges.expand(selectionRange(selection)) : selectionRange(selection)
  const activeCell = merges ? merges.anchorOf(selection.active) : selection.active
  const bounds = useMemo(
    () => ({ columnCount: source?.columnCount ?? 50, rowCount: source?.rowCount ?? 100 }),
    // the source's size changes with the revision
    [source, state.revision],
  )

  const layout = model?.layout
  const navigation = useCallback(
    (): NavigationContext => ({
      bounds,
      pageRows: gridRef.current?.pageRows() ?? 20,
      isFilled: (col, row) => store?.isFilled(sheet, { col, row }) ?? false,
      lastUsedCell: () => store?.lastUsedCell(sheet) ?? { col: 0, row: 0 },
      merges,
      // Rows a filter hides are skipped as hidden ones are.
      ...(layout?.rows ? { hiddenRow: (row: number) => isHidden(layout, 'rows', row) || layout.rows?.[String(row)]?.filtered === true } : {}),
      ...(layout?.columns ? { hiddenColumn: (col: number) => isHidden(layout, 'columns', col) } : {}),
    }),
    [bounds, store, sheet, merges, layout],
  )

  const focusGrid = useCallback(() => cellInputRef.current?.focus({ preventScroll: true }), [])
  const cellBox = useCallback((pos: CellPosition) => {
    const grid = gridRef.current
    const rect = grid?.cellRect(pos)
    const frame = grid?.element?.getBoundingClientRect()
    return rect && frame ? { ...rect, x: rect.x + frame.left, y: rect.y + frame.top } : null
  }, [])
  const reveal = useCallback((pos: CellPosition) => gridRef.current?.reveal(pos), [])
  const select = useCallback(
    (next: Selection, revealCell?: CellPosition) => {
      workspace.setSelection(next)
      gridRef.current?.reveal(revealCell ?? next.focus)
    },
    [workspace],
  )

  const editor = useCellEditor({ workspace, sheet, activeCell, navigation, select, reveal, focusGrid })
  const { editor: editing, editorIn } = editor
  // The list of a cell with list validation, open under it; closed when another cell is selected.
  const [listOpen, setListOpen] = useState(false)
  useEffect(() => setListOpen(false), [sheet, activeCell.col, activeCell.row])

  /**
   * Gives the grid the keyboard once a modal dialog has closed: focus given while the dialog is
   * still modal leaves the grid deaf to typing until it is focused again.
   */
  const refocusAfterDialog = useCallback(() => {
    requestAnimationFrame(() => {
      if (editor.current.current) return
      cellInputRef.current?.blur()
      focusGrid()
    })
  }, [focusGrid, editor])

  useEffect(() => {
    workspace.focusGridHandler = () => requestAnimationFrame(() => focusGrid())
    return () => {
      workspace.focusGridHandler = null
    }
  }, [workspace, focusGrid])

  const workbookId = store?.id
  useEffect(() => {
    if (state.status === 'ready') focusGrid()
  }, [state.status, workbookId, focusGrid])

  // keep the caret where the editor state says after programmatic changes (pointing, completion)
  useLayoutEffect(() => {
    if (!editing) return
    const element = editorIn === 'bar' ? barRef.current : cellInputRef.current
    if (element && document.activeElement === element && element.selectionStart !== editing.caret) {
      element.setSelectionRange(editing.caret, editing.caret)
    }
  }, [editing, editorIn])

  const { suggestions, hint } = useFormulaAssist(editing, functions)

  // the status bar's sums read every selected cell: only again when the cells or the selection change
  const summary = useMemo(
    () => selectionSummary(workspace),
    [workspace, state.revision, sheet, range.startCol, range.startRow, range.endCol, range.endRow],
  )

  // formula loops change only with the cells
  const circular = useMemo(() => store?.circularReferences() ?? [], [store, state.revision])

  useEffect(() => setSuggestionIndex(0), [suggestions.length, editing?.text])

  const assistantMarks = useMemo(
    () => state.assistantHighlights.filter((highlight) => highlight.sheet.toLowerCase() === sheet.toLowerCase()),
    [state.assistantHighlights, sheet],
  )

  // tracer arrows are read from the formulas as they are now, so they follow edits
  const traceArrows = useMemo(
    () => (store && state.trace && state.trace.sheet === sheet ? traceArrowsOf(state.trace, traceSourceOf(store)) : []),
    [store, state.trace, state.revision, sheet],
  )

  const highlights = useMemo((): RangeHighlight[] => {
    const marks = assistantMarks.map((mark) => ({
      range: mark.range,
      color: mark.kind === 'preview' ? GRID_COLORS.assistantPreview : GRID_COLORS.assistantApplied,
      dashed: mark.kind === 'preview',
    }))
    if (!editing || !isFormulaText(editing.text)) return marks
    const editedSheet = editing.sheet ?? sheet
    return [
      ...marks,
      ...formulaReferences(editing.text)
        .filter((ref) => (ref.sheet ?? editedSheet).toLowerCase() === sheet.toLowerCase())
        .map((ref, i) => ({ range: ref.range, color: REFERENCE_COLORS[i % REFERENCE_COLORS.length] })),
    ]
  }, [editing, sheet, assistantMarks])

  const openCellMenuAtActiveCell = useCallback(() => {
    const rect = gridRef.current?.cellRect(workspace.state.selection.active)
    const root = gridRef.current?.element?.getBoundingClientRect()
    setContextMenu({ x: (root?.left ?? 0) + (rect ? rect.x + rect.width / 2 : 60), y: (root?.top ?? 0) + (rect ? rect.y + rect.height : 40) })
  }, [workspace])

  const grid: GridControls = useMemo(
    () => ({
      bounds,
      navigation,
      select,
      reveal,
      editCell: () => editor.start(null, 'edit'),
      openCellMenu: openCellMenuAtActiveCell,
      // Tab moves between cells, so F6 is the way out of the grid for keyboard users
      leaveGrid: () => document.querySelector<HTMLInputElement>('.name-box')?.focus(),
      focus: focusGrid,
      openList: () => setListOpen(true),
    }),
    [bounds, navigation, select, reveal, editor, openCellMenuAtActiveCell, focusGrid],
  )
  const go = onGo
  const actionContext: ActionContext = { workspace, grid, editor: null, go, key: null }

  const keymap = useGridKeymap({ registry: spreadsheetActions, workspace, grid, editor, suggestions, suggestionIndex, setSuggestionIndex, go })
  const linkOf = useCallback(
    (pos: CellPosition) => {
      const { store: current, sheet: name } = workspace.state
      return current ? linkAt(current.sheet(name)?.layout, current.getInput(name, pos), pos) : undefined
    },
    [workspace],
  )
  const pointer = useGridPointer({
    workspace,
    editor,
    bounds,
    merges,
    focusGrid,
    openCellMenu: (x, y) => setContextMenu({ x, y }),
    linkAt: linkOf,
    followLink: (url) => openLink(url, (place) => goToRef.current?.(`${place.sheet.includes(' ') || place.sheet.includes("'") ? `'${place.sheet.replace(/'/g, "''")}'` : place.sheet}!${place.address}`)),
  })

  /** Selects a range (on another sheet, once it is shown) and scrolls it into view. */
  const show = useCallback(
    (target: string | null, range: CellRange) => {
      const apply = () => select(rangeSelection(range), { col: range.startCol, row: range.startRow })
      if (target && target !== workspace.state.sheet) {
        workspace.switchSheet(target)
        requestAnimationFrame(apply)
      } else apply()
    },
    [workspace, select],
  )

  const goToRef = useRef<((text: string) => string | null) | null>(null)
  const goTo = useCallback(
    (text: string): string | null => {
      if (!store) return 'No workbook loaded'
      const found = parseGoToReference(text, store.sheetNames, { defined: store.definedNames, activeSheet: sheet })
      if ('error' in found) return found.error
      show(found.sheet, found.range)
      if (workspace.state.goToOpen) {
        workspace.closeGoTo()
        refocusAfterDialog()
      } else focusGrid()
      return null
    },
    [store, sheet, workspace, show, focusGrid, refocusAfterDialog],
  )

  goToRef.current = goTo

  // ---- clipboard ----

  const onCopy = (e: ReactClipboardEvent, cut: boolean) => {
    if (editor.current.current) return
    e.preventDefault()
    copySelection(workspace, e.clipboardData, cut)
  }

  const onPaste = (e: ReactClipboardEvent) => {
    if (editor.current.current) return
    e.preventDefault()
    const text = e.clipboardData.getData('text/plain')
    const pasted = pasteText(workspace, text)
    if (pasted) gridRef.current?.reveal({ col: pasted.startCol, row: pasted.startRow })
  }

  const onBlurEditor = (e: ReactFocusEvent) => {
    const edit = editor.current.current
    if (!edit) return
    const next = e.relatedTarget as Node | null
    if (next && (next === cellInputRef.current || next === barRef.current || listRef.current?.contains(next))) return
    // a click on a sheet tab while a formula can take a reference points at that sheet's cells
    if (next instanceof HTMLElement && next.getAttribute('role') === 'tab' && isFormulaText(edit.text) && (isPointable(edit) || (edit.sheet ?? sheet) !== sheet)) return
    editor.commit(null)
  }

  const chartFloats = useSheetChartFloats(workspace, store, sheet)
  const editedChart = state.chartFocus?.editing ? store?.chartById(state.chartFocus.id) : undefined

  if (state.status === 'loading') {
    return (
      <div className="spreadsheet-empty" role="status">
        Loading workbook data...
      </div>
    )
  }
  if (!store || !source || !model) {
    return (
      <div className="spreadsheet-empty" role="status">
        No workbook loaded
      </div>
    )
  }

  const pointingElsewhere = editing !== null && editing.sheet !== undefined && editing.sheet !== sheet
  const activeAddress = cellAddress(activeCell)
  const shownInput = editing ? editing.text : store.getInput(sheet, activeCell)
  const activeDisplay = store.getDisplay(sheet, activeCell)
  const activeConditionalLook = describeConditionalLook(store.conditionalLook(sheet, activeCell))
  const activeMerge = merges?.at(activeCell)
  const isOneCell =
    (range.startCol === range.endCol && range.startRow === range.endRow) ||
    (activeMerge !== undefined && activeMerge.startCol === range.startCol && activeMerge.endCol === range.endCol && activeMerge.startRow === range.startRow && activeMerge.endRow === range.endRow)
  const selectionText = isOneCell ? activeAddress : rangeAddress(range)
  const mode = editing ? (isPointable(editing) && editing.mode === 'enter' && editing.pointing ? 'Point' : editing.mode === 'edit' ? 'Edit' : 'Enter') : 'Ready'
  const listId = 'formula-suggestions'
  const suggestionBox = (suggestions.length > 0 || hint) && !pointingElsewhere && editing ? gridRef.current?.cellRect(editing.cell) : null
  const validation = editing ? undefined : ruleAt(store, sheet, activeCell)
  const hasList = validation?.type === 'list' && validation.showDropdown !== false
  const hoveredNote = hovered && !editing ? noteAt(store.sheet(sheet)?.layout, hovered) : undefined
  const hoveredRect = hoveredNote && hovered ? gridRef.current?.cellRect(hovered) : null

  return (
    <div className="spreadsheet">
      <FormulaBar
        selectionText={selectionText}
        names={store.definedNames.map((name) => name.name)}
        value={shownInput}
        inputRef={barRef}
        onGoTo={goTo}
        onLeaveNameBox={focusGrid}
        onFocus={() => {
          if (!editor.current.current) editor.start(null, 'edit', 'bar')
          else editor.setEditorIn('bar')
        }}
        onChange={(value, caret) => {
          if (!editor.current.current) editor.start(null, 'edit', 'bar')
          editor.input(value, caret)
        }}
        onCaretMove={(element) => element.selectionStart !== null && editor.moveCaret(element.selectionStart)}
        onKeyDown={keymap.onEditingKey}
        onBlur={onBlurEditor}
      />
      <div className="grid-area">
        <Grid
          ref={gridRef}
          source={source}
          revision={state.revision}
          selection={range}
          active={activeCell}
          editing={editing !== null && !pointingElsewhere}
          highlights={highlights}
          copyRange={copy && copy.sheet === sheet ? copy.range : null}
          traceArrows={traceArrows}
          ariaLabel={`${sheet} grid`}
          onPointerDown={(target, modifiers) => {
            // a click on the cells leaves a selected chart (its editor, when open, stays)
            if (workspace.state.chartFocus && !workspace.state.chartFocus.editing) workspace.focusChart(null)
            pointer.onPointerDown(target, modifiers)
          }}
          onPointerDrag={pointer.onPointerDrag}
          onPointerUp={pointer.onPointerUp}
          onFill={(from, to) => fillByHandle(workspace, from, to)}
          onColumnResize={(column, width) => workspace.dispatch({ type: 'resize-column', sheet, column, width })}
          onDraw={onDraw}
          onColumnAutoFit={(column) => autoFitColumn(workspace, column)}
          onRowResize={(row, height) => workspace.dispatch({ type: 'set-sheet-view', sheet, rows: [{ from: row, to: row, height }] })}
          onRowAutoFit={(row) => autoFitRow(workspace, row)}
          zoom={state.zoom}
          onOutlineToggle={(axis, group) => workspace.dispatch(setCollapsed(sheet, { ...group, axis, level: 1 }, !group.collapsed))}
          onFilterButton={(column, at) => workspace.openFilterMenu({ column, at })}
          onZoomStep={(steps) => workspace.setZoom(workspace.state.zoom + steps * ZOOM_STEP)}
          onContextMenu={pointer.onContextMenu}
          onHover={(target) => {
            const next = target?.kind === 'cell' ? (merges ? merges.anchorOf(target.pos) : target.pos) : null
            setHovered((previous) => (previous?.col === next?.col && previous?.row === next?.row ? previous : next))
          }}
          onDoubleClick={pointer.onDoubleClick}
          onFillHandleDoubleClick={() => fillDownAlongside(workspace)}
          floats={chartFloats}
          overlay={
            <>
              <textarea
                ref={cellInputRef}
                className={`cell-editor ${editing && !pointingElsewhere ? 'editing' : ''}`}
                aria-label={`${activeAddress}${activeDisplay ? ` ${activeDisplay}` : ''}`}
                aria-roledescription="cell"
                aria-description={activeConditionalLook || undefined}
                role={editing ? 'combobox' : undefined}
                aria-autocomplete={editing ? 'list' : undefined}
                aria-expanded={editing ? suggestions.length > 0 : undefined}
                aria-controls={suggestions.length > 0 ? listId : undefined}
                aria-activedescendant={suggestions.length > 0 ? `${listId}-${suggestionIndex}` : undefined}
                data-testid="cell-editor"
                spellCheck={false}
                autoComplete="off"
                rows={1}
                value={editing ? editing.text : ''}
                onChange={(e) => editor.input(e.target.value, e.target.selectionStart ?? e.target.value.length)}
                onKeyDown={keymap.onGridKey}
                onSelect={(e) => e.currentTarget.selectionStart !== null && editor.moveCaret(e.currentTarget.selectionStart)}
                onBlur={onBlurEditor}
                onCopy={(e) => onCopy(e, false)}
                onCut={(e) => onCopy(e, true)}
                onPaste={onPaste}
                onPointerDown={(e) => {
                  // a click inside the text moves the caret: F2 edit mode
                  const edit = editor.current.current
                  if (edit) {
                    e.stopPropagation()
                    editor.setEditor({ ...edit, mode: 'edit', pointing: null })
                  }
                }}
              />
              {validation && (
                <ValidationDropdown
                  address={activeAddress}
                  items={hasList ? (listOpen ? (dropdownItems(store, sheet, activeCell) ?? []) : []) : null}
                  current={activeDisplay}
                  open={hasList && listOpen}
                  onOpen={() => setListOpen(true)}
                  onClose={() => {
                    setListOpen(false)
                    focusGrid()
                  }}
                  onChoose={(item) => {
                    setListOpen(false)
                    workspace.dispatch({ type: 'set-cells', sheet, cells: [{ address: activeAddress, input: item }] })
                    focusGrid()
                  }}
                  message={inputMessageAt(store, sheet, activeCell)}
                />
              )}
            </>
          }
        />
        {assistantMarks.length > 0 && (
          <p className="visually-hidden" role="status" data-testid="assistant-outlines">
            {assistantMarks.some((mark) => mark.kind === 'preview') ? 'Outlined for review: ' : 'Just changed: '}
            {assistantMarks.map((mark) => rangeAddress(mark.range)).join(', ')}
          </p>
        )}
        {editedChart && (
          <ChartEditor
            key={editedChart.id}
            workspace={workspace}
            store={store}
            sheet={sheet}
            chart={editedChart}
            onClose={() => {
              workspace.focusChart(editedChart.id)
            }}
          />
        )}
        {hoveredNote && hoveredRect && <NotePopup note={hoveredNote} cell={hoveredRect} />}
        {suggestionBox && (
          <FormulaAssist
            anchor={suggestionBox}
            suggestions={suggestions}
            hint={hint}
            selected={suggestionIndex}
            listId={listId}
            listRef={listRef}
            onComplete={editor.complete}
          />
        )}
      </div>
      <SheetTabs
        sheets={store.visibleSheetNames}
        hiddenCount={store.hiddenSheetNames.length}
        onHide={(name) => runLayoutChange(() => workspace.hideSheet(name))}
        tabColors={Object.fromEntries(store.visibleSheetNames.map((name) => [name, store.sheet(name)?.layout?.tabColor]))}
        onTabColor={(name, color) => runLayoutChange(() => workspace.dispatch({ type: 'set-sheet-view', sheet: name, tabColor: color }))}
        onUnhide={() => workspace.openUnhideSheet()}
        active={sheet}
        onSelect={(name) => {
          const edit = editor.current.current
          // a formula being typed points at the other sheet's cells, as in Excel; any other edit is written first
          if (edit && !(isFormulaText(edit.text) && (isPointable(edit) || (edit.sheet ?? sheet) !== sheet))) editor.commit(null)
          workspace.switchSheet(name)
          focusGrid()
        }}
        onAdd={() => {
          spreadsheetActions.get('add-sheet').run?.(actionContext)
          focusGrid()
        }}
        onRename={(from, to) => workspace.renameSheet(from, to)}
        onDelete={(name) => {
          workspace.deleteSheet(name)
          refocusAfterDialog()
        }}
        onMove={(name, index) => workspace.moveSheet(name, index)}
        onClearEverything={onClearEverything}
      />
      <StatusBar
        address={selectionText}
        mode={mode}
        sheetIndex={store.visibleSheetNames.indexOf(sheet)}
        sheetCount={store.visibleSheetNames.length}
        zoom={state.zoom}
        onZoom={(zoom) => workspace.setZoom(zoom)}
        summary={summary}
        loading={model.loading ? Math.floor((100 * model.loading.loadedRows) / Math.max(1, model.loading.totalRows)) : null}
        circular={circular}
        onGoTo={goTo}
        records={recordsFoundText(layout)}
      />
      {traceArrows.length > 0 && (
        <ul className="visually-hidden" aria-label="Tracer arrows">
          {traceArrows.map((arrow) => {
            const text = describeArrow(arrow)
            return <li key={text}>{text}</li>
          })}
        </ul>
      )}
      {contextMenu && (
        <GridContextMenu
          x={contextMenu.x}
          y={contextMenu.y}
          items={cellMenuItems(spreadsheetActions, actionContext, focusGrid)}
          onClose={() => {
            setContextMenu(null)
            focusGrid()
          }}
        />
      )}
      <OpenedOnce open={state.unhideSheetOpen}>
        {(open) => (
          <UnhideSheetDialog
            open={open}
            sheets={store.hiddenSheetNames}
            onClose={() => {
              workspace.closeUnhideSheet()
              refocusAfterDialog()
            }}
            onUnhide={(name) => {
              workspace.unhideSheet(name)
              refocusAfterDialog()
            }}
          />
        )}
      </OpenedOnce>
      <ToolDialogs workspace={workspace} show={show} onClosed={refocusAfterDialog} />
      <ValidationAlertDialog
        alert={editor.validationAlert}
        onAnswer={(answer) => {
          editor.answerValidation(answer)
          refocusAfterDialog()
        }}
      />
      <DataTools workspace={workspace} cellBox={cellBox} onClosed={refocusAfterDialog} />
      <OpenedOnce open={state.goToOpen}>
        {(open) => (
          <GoToDialog
            open={open}
            onClose={() => {
              workspace.closeGoTo()
              refocusAfterDialog()
            }}
            onGo={goTo}
          />
        )}
      </OpenedOnce>
      {/* mounted only while open: its preview formats a sample, work the first screen need not wait on */}
      {state.formatCellsOpen && (
        <FormatCellsDialog
          active={{ format: store.getFormat(sheet, activeCell) ?? null, value: previewValue(store.getValue(sheet, activeCell)) }}
          onApply={(format) => {
            workspace.formatSelection(format)
            workspace.closeFormatCells()
            refocusAfterDialog()
          }}
          onClose={() => {
            workspace.closeFormatCells()
            refocusAfterDialog()
          }}
        />
      )}
      <OpenedOnce open={state.pasteSpecialOpen}>
        {(open) => (
          <PasteSpecialDialog
            open={open}
            onPaste={(options) => {
              const pasted = pasteSpecial(workspace, options)
              workspace.closePasteSpecial()
              if (pasted) gridRef.current?.reveal({ col: pasted.startCol, row: pasted.startRow })
              refocusAfterDialog()
            }}
            onClose={() => {
              workspace.closePasteSpecial()
              refocusAfterDialog()
            }}
          />
        )}
      </OpenedOnce>
    </div>
  )
}

/** The active cell's value as the Format Cells sample shows it: an error or a boolean as nothing to format. */
function previewValue(value: EngineValue): number | string | null {
  return typeof value === 'number' || typeof value === 'string' ? value : null
}

export type { FunctionSuggestion }
