import type { ClipboardEvent as ReactClipboardEvent, FocusEvent as ReactFocusEvent, KeyboardEvent as ReactKeyboardEvent } from 'react'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { CellPosition } from '../grid/address'
import { cellAddress, rangeAddress } from '../grid/address'
import type { EditorState } from '../grid/editor-state'
import { beginEdit, committedInput, dragPointTo, editText, hasChanged, isPointable, pointAtCell, pointWithKey } from '../grid/editor-state'
import { completeFunctionName, formulaReferences, isFormulaText, sheetPrefix, translateFormula } from '../grid/formula-editing'
import type { GridHandle, GridTarget, PointerModifiers } from '../grid/Grid'
import { Grid } from '../grid/Grid'
import type { NavigationContext, NavigationKey } from '../grid/navigation'
import { navigate } from '../grid/navigation'
import { REFERENCE_COLORS } from '../grid/render'
import type { Selection } from '../grid/selection'
import { extendSelection, rangeSelection, selectAll, selectColumns, selectionRange, selectRows, singleCellSelection } from '../grid/selection'
import type { DrawStats, RangeHighlight } from '../grid/types'
import { autoFitColumn, clearSelection, copySelection, fillByHandle, fillDownAlongside, fillSelection, gridMenuItems, pasteText, selectionSummary } from './grid-actions'
import { GridContextMenu } from './GridContextMenu'
import type { FunctionSuggestion } from './FormulaAssist'
import { FormulaAssist, useFormulaAssist } from './FormulaAssist'
import { FormulaBar } from './FormulaBar'
import { GoToDialog } from './GoToDialog'
import { parseGoToReference } from './goto'
import { SheetTabs } from './SheetTabs'
import { StatusBar } from './StatusBar'
import { useWorkspace } from './workspace-context'

interface SpreadsheetViewProps {
  /** the engine's function catalogue, for autocomplete */
  functions: readonly FunctionSuggestion[]
  onClearEverything(): void
  /** hears every frame the grid draws (the benchmark's probe) */
  onDraw?: (stats: DrawStats) => void
}

type DragKind = 'cells' | 'columns' | 'rows' | 'point' | null

const keyOf = (e: ReactKeyboardEvent): NavigationKey => ({ key: e.key, shift: e.shiftKey, ctrl: e.ctrlKey || e.metaKey, alt: e.altKey })

/**
 * The spreadsheet: the name box and fx bar, the grid with its in-cell editor, the sheet tabs and
 * the status bar. Editing follows spec 1 §4 and Excel: type, F2 or '=' to edit; Enter, Tab,
 * Escape and blur; arrows and clicks point at cells while a formula can take a reference.
 */
export function SpreadsheetView({ functions, onClearEverything, onDraw }: SpreadsheetViewProps) {
  const [state, workspace] = useWorkspace()
  const { store, sheet, selection, copy } = state
  const gridRef = useRef<GridHandle>(null)
  const cellInputRef = useRef<HTMLTextAreaElement>(null)
  const barRef = useRef<HTMLInputElement>(null)
  const listRef = useRef<HTMLUListElement>(null)
  const [editor, setEditor] = useState<EditorState | null>(null)
  const [editorIn, setEditorIn] = useState<'cell' | 'bar'>('cell')
  const [suggestionIndex, setSuggestionIndex] = useState(0)
  const [contextMenu, setContextMenu] = useState<{ x: number; y: number } | null>(null)
  const drag = useRef<DragKind>(null)
  const editorRef = useRef(editor)
  editorRef.current = editor

  const model = store?.sheet(sheet)
  const workbookId = store?.id
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

  const navContext = useCallback(
    (): NavigationContext => ({
      bounds,
      pageRows: gridRef.current?.pageRows() ?? 20,
      isFilled: (col, row) => store?.isFilled(sheet, { col, row }) ?? false,
      lastUsedCell: () => store?.lastUsedCell(sheet) ?? { col: 0, row: 0 },
      merges,
    }),
    [bounds, store, sheet, merges],
  )

  const focusGrid = useCallback(() => cellInputRef.current?.focus({ preventScroll: true }), [])

  /** References pointed at on another sheet than the edited cell's carry that sheet's name. */
  const pointingPrefix = (current: EditorState) => (current.sheet !== undefined && current.sheet !== sheet ? sheetPrefix(sheet) : '')

  /**
   * Gives the grid the keyboard once a modal dialog has closed: focus given while the dialog is
   * still modal leaves the grid deaf to typing until it is focused again.
   */
  const refocusAfterDialog = useCallback(() => {
    requestAnimationFrame(() => {
      if (editorRef.current) return
      cellInputRef.current?.blur()
      focusGrid()
    })
  }, [focusGrid])

  useEffect(() => {
    workspace.focusGridHandler = () => requestAnimationFrame(() => focusGrid())
    return () => {
      workspace.focusGridHandler = null
    }
  }, [workspace, focusGrid])

  // a new sheet starts without an edit in progress, unless the edit knows its own sheet (it is
  // pointing at cells of the sheet now shown)
  useEffect(() => {
    if (editorRef.current && editorRef.current.sheet === undefined) setEditor(null)
  }, [sheet])

  // another workbook ends the edit; the same workbook reopened as the server has it keeps it
  useEffect(() => {
    setEditor(null)
  }, [workbookId])

  useEffect(() => {
    if (state.status === 'ready') focusGrid()
  }, [state.status, workbookId, focusGrid])

  // keep the caret where the editor state says after programmatic changes (pointing, completion)
  useLayoutEffect(() => {
    if (!editor) return
    const element = editorIn === 'bar' ? barRef.current : cellInputRef.current
    if (element && document.activeElement === element && element.selectionStart !== editor.caret) {
      element.setSelectionRange(editor.caret, editor.caret)
    }
  }, [editor, editorIn])

  const select = useCallback(
    (next: Selection, revealCell?: CellPosition) => {
      workspace.setSelection(next)
      gridRef.current?.reveal(revealCell ?? next.focus)
    },
    [workspace],
  )

  const { suggestions, hint } = useFormulaAssist(editor, functions)

  // the status bar's sums read every selected cell: only again when the cells or the selection change
  const summary = useMemo(
    () => selectionSummary(workspace),
    [workspace, state.revision, sheet, range.startCol, range.startRow, range.endCol, range.endRow],
  )

  useEffect(() => setSuggestionIndex(0), [suggestions.length, editor?.text])

  const highlights = useMemo((): RangeHighlight[] => {
    if (!editor || !isFormulaText(editor.text)) return []
    const editedSheet = editor.sheet ?? sheet
    return formulaReferences(editor.text)
      .filter((ref) => (ref.sheet ?? editedSheet).toLowerCase() === sheet.toLowerCase())
      .map((ref, i) => ({ range: ref.range, color: REFERENCE_COLORS[i % REFERENCE_COLORS.length] }))
  }, [editor, sheet])

  const startEditing = useCallback(
    (text: string | null, mode: EditorState['mode'], where: 'cell' | 'bar' = 'cell') => {
      if (!store) return null
      const original = store.getInput(sheet, activeCell)
      const next = { ...beginEdit(activeCell, original, text ?? original, mode), sheet }
      setEditor(next)
      setEditorIn(where)
      gridRef.current?.reveal(activeCell)
      return next
    },
    [store, sheet, activeCell],
  )

  /** Writes the edit into the cell (or, with Ctrl+Enter, into every selected cell) and optionally moves. */
  const commit = useCallback(
    (move: NavigationKey | null, intoSelection = false) => {
      const current = editorRef.current
      if (!current || !store) return
      const input = committedInput(current)
      const target = current.sheet ?? sheet
      const elsewhere = target !== sheet
      if (intoSelection && !elsewhere) {
        const cells: { address: string; input: string }[] = []
        const r = selectionRange(selection)
        for (let row = r.startRow; row <= r.endRow; row++) {
          for (let col = r.startCol; col <= r.endCol; col++) {
            const shifted = input.startsWith('=') ? translateFormula(input, row - current.cell.row, col - current.cell.col) : input
            cells.push({ address: cellAddress({ col, row }), input: shifted })
          }
        }
        store.dispatch({ type: 'set-cells', sheet: target, cells })
      } else if (hasChanged(current)) {
        store.dispatch({ type: 'set-cells', sheet: target, cells: [{ address: cellAddress(current.cell), input }] })
      }
      editorRef.current = null
      setEditor(null)
      const from = elsewhere ? singleCellSelection(current.cell) : workspace.state.selection
      const next = move ? (navigate(from, move, navContext()) ?? from) : from
      if (elsewhere) {
        // back to the sheet of the edited cell, as Excel returns after pointing at another sheet
        workspace.switchSheet(target, next)
        requestAnimationFrame(() => gridRef.current?.reveal(next.active))
        focusGrid()
        return
      }
      if (move) select(next, next.active)
      focusGrid()
    },
    [store, sheet, selection, workspace, navContext, select, focusGrid],
  )

  const cancel = useCallback(() => {
    const current = editorRef.current
    editorRef.current = null
    setEditor(null)
    if (current?.sheet && current.sheet !== sheet) {
      workspace.switchSheet(current.sheet, singleCellSelection(current.cell))
      focusGrid()
      return
    }
    focusGrid()
  }, [focusGrid, sheet, workspace])

  const complete = useCallback(
    (name: string) => {
      const current = editorRef.current
      if (!current) return
      const done = completeFunctionName(current.text, current.caret, name)
      setEditor({ ...current, text: done.text, caret: done.caret, pointing: null, mode: 'enter' })
    },
    [],
  )

  const goTo = useCallback(
    (text: string): string | null => {
      if (!store) return 'No workbook loaded'
      const found = parseGoToReference(text, store.sheetNames)
      if ('error' in found) return found.error
      const apply = () => select(rangeSelection(found.range), { col: found.range.startCol, row: found.range.startRow })
      if (found.sheet && found.sheet !== sheet) {
        workspace.switchSheet(found.sheet)
        requestAnimationFrame(apply)
      } else apply()
      if (workspace.state.goToOpen) {
        workspace.closeGoTo()
        refocusAfterDialog()
      } else focusGrid()
      return null
    },
    [store, sheet, workspace, select, focusGrid],
  )

  // ---- keyboard ----

  const onEditingKey = (e: ReactKeyboardEvent<HTMLElement>, current: EditorState) => {
    const key = keyOf(e)
    if (suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault()
        const step = e.key === 'ArrowDown' ? 1 : -1
        setSuggestionIndex((i) => (i + step + suggestions.length) % suggestions.length)
        return
      }
      if (e.key === 'Tab' && !e.shiftKey) {
        e.preventDefault()
        complete(suggestions[suggestionIndex].name)
        return
      }
    }
    switch (e.key) {
      case 'Escape':
        e.preventDefault()
        cancel()
        return
      case 'Enter':
        if (e.altKey) {
          // Alt+Enter starts a new line inside the cell, as in Excel
          e.preventDefault()
          const el = e.currentTarget as HTMLTextAreaElement | HTMLInputElement
          const at = el.selectionStart ?? current.text.length
          const text = current.text.slice(0, at) + '\n' + current.text.slice(el.selectionEnd ?? at)
          setEditor(editText(current, text, at + 1))
          return
        }
        e.preventDefault()
        commit(key.ctrl ? null : { ...key, ctrl: false }, key.ctrl)
        return
      case 'Tab':
        e.preventDefault()
        commit({ ...key, ctrl: false })
        return
      case 'F2':
        e.preventDefault()
        setEditor({ ...current, mode: current.mode === 'enter' ? 'edit' : 'enter', pointing: null })
        return
    }
    if (e.key.startsWith('Arrow') || e.key === 'PageUp' || e.key === 'PageDown') {
      const pointed = pointWithKey(current, key, navContext(), pointingPrefix(current))
      if (pointed) {
        e.preventDefault()
        setEditor(pointed)
        if (pointed.pointing) gridRef.current?.reveal(pointed.pointing.focus)
        return
      }
      // Enter mode: an arrow that cannot point commits and moves, as in Excel
      if (current.mode === 'enter' && editorIn === 'cell' && e.key.startsWith('Arrow')) {
        e.preventDefault()
        commit(key)
      }
    }
  }

  const onGridKey = (e: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return
    const current = editorRef.current
    if (current) {
      onEditingKey(e, current)
      return
    }
    const key = keyOf(e)
    if (key.ctrl && !key.alt) {
      const letter = e.key.toLowerCase()
      const actions: Record<string, () => void> = {
        z: () => (key.shift ? workspace.redo() : workspace.undo()),
        y: () => workspace.redo(),
        b: () => workspace.styleSelection({ bold: !workspace.activeStyle()?.bold }),
        i: () => workspace.styleSelection({ italic: !workspace.activeStyle()?.italic }),
        u: () => workspace.styleSelection({ underline: !workspace.activeStyle()?.underline }),
        d: () => fillSelection(workspace, 'down'),
        r: () => fillSelection(workspace, 'right'),
        a: () => workspace.setSelection(selectAll(bounds)),
        g: () => workspace.openGoTo(),
        pagedown: () => workspace.stepSheet(1),
        pageup: () => workspace.stepSheet(-1),
      }
      const action = actions[letter]
      if (action) {
        e.preventDefault()
        action()
        return
      }
      if (letter === 'c' || letter === 'x' || letter === 'v') return // the clipboard events do the work
    }
    if (e.key === 'F2') {
      e.preventDefault()
      startEditing(null, 'edit')
      return
    }
    // Shift+Space selects the row, Ctrl+Space the column, as in Excel
    if (e.key === ' ' && (e.shiftKey || key.ctrl) && !(e.shiftKey && key.ctrl)) {
      e.preventDefault()
      const r = selectionRange(selection)
      workspace.setSelection(e.shiftKey ? selectRows(r.startRow, r.endRow, bounds) : selectColumns(r.startCol, r.endCol, bounds))
      return
    }
    // Tab moves between cells, so F6 is the way out of the grid for keyboard users
    if (e.key === 'F6') {
      e.preventDefault()
      const box = document.querySelector<HTMLInputElement>('.name-box')
      box?.focus()
      return
    }
    if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault()
      openContextMenuAtActiveCell()
      return
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault()
      clearSelection(workspace)
      return
    }
    if (e.key === 'Escape') {
      if (copy) workspace.setCopy(null)
      return
    }
    const next = navigate(selection, key, navContext())
    if (next) {
      e.preventDefault()
      select(next, key.shift ? next.focus : next.active)
    }
  }

  // typing into the focused grid starts an edit with what was typed ('=' starts a formula)
  const onGridInput = (text: string, caret: number) => {
    const current = editorRef.current
    if (current) {
      setEditor(editText(current, text, caret))
      return
    }
    const started = startEditing(text, 'enter')
    if (started) setEditor({ ...started, caret })
  }

  const onCaretMove = (element: HTMLTextAreaElement | HTMLInputElement) => {
    const current = editorRef.current
    if (!current || element.selectionStart === null) return
    if (element.selectionStart !== current.caret) setEditor(editText(current, current.text, element.selectionStart))
  }

  // ---- clipboard ----

  const onCopy = (e: ReactClipboardEvent, cut: boolean) => {
    if (editorRef.current) return
    e.preventDefault()
    copySelection(workspace, e.clipboardData, cut)
  }

  const onPaste = (e: ReactClipboardEvent) => {
    if (editorRef.current) return
    e.preventDefault()
    const text = e.clipboardData.getData('text/plain')
    const pasted = pasteText(workspace, text)
    if (pasted) gridRef.current?.reveal({ col: pasted.startCol, row: pasted.startRow })
  }

  // ---- mouse ----

  const onPointerDown = (target: GridTarget, mods: PointerModifiers) => {
    const current = editorRef.current
    if (current && target.kind === 'cell' && isPointable(current)) {
      const pointed = pointAtCell(current, target.pos, mods.shift, pointingPrefix(current))
      if (pointed) {
        setEditor(pointed)
        drag.current = 'point'
        return
      }
    }
    if (current) commit(null)
    switch (target.kind) {
      case 'cell':
        workspace.setSelection(mods.shift ? extendSelection(selection, target.pos) : singleCellSelection(merges ? merges.anchorOf(target.pos) : target.pos))
        drag.current = 'cells'
        break
      case 'column': {
        const from = mods.shift ? selection.anchor.col : target.col
        workspace.setSelection(selectColumns(from, target.col, bounds))
        drag.current = 'columns'
        break
      }
      case 'row': {
        const from = mods.shift ? selection.anchor.row : target.row
        workspace.setSelection(selectRows(from, target.row, bounds))
        drag.current = 'rows'
        break
      }
      case 'corner':
        workspace.setSelection(selectAll(bounds))
        drag.current = null
        break
    }
    focusGrid()
  }

  const onPointerDrag = (target: GridTarget) => {
    const current = editorRef.current
    const sel = workspace.state.selection
    if (drag.current === 'point' && current && target.kind === 'cell') setEditor(dragPointTo(current, target.pos, pointingPrefix(current)))
    else if (drag.current === 'cells' && target.kind === 'cell') workspace.setSelection(extendSelection(sel, target.pos))
    else if (drag.current === 'columns') {
      const col = target.kind === 'cell' ? target.pos.col : target.kind === 'column' ? target.col : sel.focus.col
      workspace.setSelection(selectColumns(sel.anchor.col, col, bounds))
    } else if (drag.current === 'rows') {
      const row = target.kind === 'cell' ? target.pos.row : target.kind === 'row' ? target.row : sel.focus.row
      workspace.setSelection(selectRows(sel.anchor.row, row, bounds))
    }
  }

  // a double click edits the cell in place, caret at the end (F2's edit mode)
  const onDoubleClick = (target: GridTarget) => {
    if (target.kind !== 'cell' || editorRef.current || !store) return
    const cell = merges ? merges.anchorOf(target.pos) : target.pos
    workspace.setSelection(singleCellSelection(cell))
    const original = store.getInput(sheet, cell)
    setEditor({ ...beginEdit(cell, original, original, 'edit'), sheet })
    setEditorIn('cell')
    drag.current = null
    focusGrid()
  }

  const onContextMenu = (target: GridTarget, x: number, y: number) => {
    if (editorRef.current) commit(null)
    const sel = workspace.state.selection
    const r = selectionRange(sel)
    if (target.kind === 'cell' && !(target.pos.col >= r.startCol && target.pos.col <= r.endCol && target.pos.row >= r.startRow && target.pos.row <= r.endRow)) {
      workspace.setSelection(singleCellSelection(target.pos))
    } else if (target.kind === 'column' && !(target.col >= r.startCol && target.col <= r.endCol && r.startRow === 0 && r.endRow === bounds.rowCount - 1)) {
      workspace.setSelection(selectColumns(target.col, target.col, bounds))
    } else if (target.kind === 'row' && !(target.row >= r.startRow && target.row <= r.endRow && r.startCol === 0 && r.endCol === bounds.columnCount - 1)) {
      workspace.setSelection(selectRows(target.row, target.row, bounds))
    }
    setContextMenu({ x, y })
  }

  const openContextMenuAtActiveCell = () => {
    const rect = gridRef.current?.cellRect(selection.active)
    const root = gridRef.current?.element?.getBoundingClientRect()
    setContextMenu({ x: (root?.left ?? 0) + (rect ? rect.x + rect.width / 2 : 60), y: (root?.top ?? 0) + (rect ? rect.y + rect.height : 40) })
  }

  const onBlurEditor = (e: ReactFocusEvent) => {
    const current = editorRef.current
    if (!current) return
    const next = e.relatedTarget as Node | null
    if (next && (next === cellInputRef.current || next === barRef.current || listRef.current?.contains(next))) return
    // a click on a sheet tab while a formula can take a reference points at that sheet's cells
    if (next instanceof HTMLElement && next.getAttribute('role') === 'tab' && isFormulaText(current.text) && (isPointable(current) || (current.sheet ?? sheet) !== sheet)) return
    commit(null)
  }

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

  const pointingElsewhere = editor !== null && editor.sheet !== undefined && editor.sheet !== sheet
  const activeAddress = cellAddress(activeCell)
  const shownInput = editor ? editor.text : store.getInput(sheet, activeCell)
  const activeDisplay = store.getDisplay(sheet, activeCell)
  const activeMerge = merges?.at(activeCell)
  const isOneCell =
    (range.startCol === range.endCol && range.startRow === range.endRow) ||
    (activeMerge !== undefined && activeMerge.startCol === range.startCol && activeMerge.endCol === range.endCol && activeMerge.startRow === range.startRow && activeMerge.endRow === range.endRow)
  const selectionText = isOneCell ? activeAddress : rangeAddress(range)
  const mode = editor ? (isPointable(editor) && editor.mode === 'enter' && editor.pointing ? 'Point' : editor.mode === 'edit' ? 'Edit' : 'Enter') : 'Ready'
  const listId = 'formula-suggestions'
  const suggestionBox = (suggestions.length > 0 || hint) && !pointingElsewhere ? gridRef.current?.cellRect(editor!.cell) : null

  return (
    <div className="spreadsheet">
      <FormulaBar
        selectionText={selectionText}
        value={shownInput}
        inputRef={barRef}
        onGoTo={goTo}
        onLeaveNameBox={focusGrid}
        onFocus={() => {
          if (!editorRef.current) startEditing(null, 'edit', 'bar')
          else setEditorIn('bar')
        }}
        onChange={(value, caret) => {
          const current = editorRef.current ?? startEditing(null, 'edit', 'bar')
          if (current) setEditor(editText(current, value, caret))
        }}
        onCaretMove={onCaretMove}
        onKeyDown={(e) => {
          const current = editorRef.current
          if (current) onEditingKey(e, current)
        }}
        onBlur={onBlurEditor}
      />
      <div className="grid-area">
        <Grid
          ref={gridRef}
          source={source}
          revision={state.revision}
          selection={range}
          active={activeCell}
          editing={editor !== null && !pointingElsewhere}
          highlights={highlights}
          copyRange={copy && copy.sheet === sheet ? copy.range : null}
          ariaLabel={`${sheet} grid`}
          onPointerDown={onPointerDown}
          onPointerDrag={onPointerDrag}
          onPointerUp={() => {
            drag.current = null
          }}
          onFill={(from, to) => fillByHandle(workspace, from, to)}
          onColumnResize={(column, width) => workspace.dispatch({ type: 'resize-column', sheet, column, width })}
          onDraw={onDraw}
          onColumnAutoFit={(column) => autoFitColumn(workspace, column)}
          onContextMenu={onContextMenu}
          onDoubleClick={onDoubleClick}
          onFillHandleDoubleClick={() => fillDownAlongside(workspace)}
          overlay={
            <textarea
              ref={cellInputRef}
              className={`cell-editor ${editor && !pointingElsewhere ? 'editing' : ''}`}
              aria-label={`${activeAddress}${activeDisplay ? ` ${activeDisplay}` : ''}`}
              aria-roledescription="cell"
              role={editor ? 'combobox' : undefined}
              aria-autocomplete={editor ? 'list' : undefined}
              aria-expanded={editor ? suggestions.length > 0 : undefined}
              aria-controls={suggestions.length > 0 ? listId : undefined}
              aria-activedescendant={suggestions.length > 0 ? `${listId}-${suggestionIndex}` : undefined}
              data-testid="cell-editor"
              spellCheck={false}
              autoComplete="off"
              rows={1}
              value={editor ? editor.text : ''}
              onChange={(e) => onGridInput(e.target.value, e.target.selectionStart ?? e.target.value.length)}
              onKeyDown={onGridKey}
              onSelect={(e) => onCaretMove(e.currentTarget)}
              onBlur={onBlurEditor}
              onCopy={(e) => onCopy(e, false)}
              onCut={(e) => onCopy(e, true)}
              onPaste={onPaste}
              onPointerDown={(e) => {
                // a click inside the text moves the caret: F2 edit mode
                if (editorRef.current) {
                  e.stopPropagation()
                  setEditor({ ...editorRef.current, mode: 'edit', pointing: null })
                }
              }}
            />
          }
        />
        {suggestionBox && (
          <FormulaAssist
            anchor={suggestionBox}
            suggestions={suggestions}
            hint={hint}
            selected={suggestionIndex}
            listId={listId}
            listRef={listRef}
            onComplete={complete}
          />
        )}
      </div>
      <SheetTabs
        sheets={store.sheetNames}
        active={sheet}
        onSelect={(name) => {
          const current = editorRef.current
          if (current && isFormulaText(current.text) && (isPointable(current) || (current.sheet ?? sheet) !== sheet)) {
            // a formula being typed points at the other sheet's cells, as in Excel
            workspace.switchSheet(name)
            focusGrid()
            return
          }
          if (current) commit(null)
          workspace.switchSheet(name)
          focusGrid()
        }}
        onAdd={() => {
          workspace.addSheet()
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
        sheetIndex={store.sheetNames.indexOf(sheet)}
        sheetCount={store.sheetNames.length}
        summary={summary}
        loading={model.loading ? Math.floor((100 * model.loading.loadedRows) / Math.max(1, model.loading.totalRows)) : null}
      />
      {contextMenu && (
        <GridContextMenu
          x={contextMenu.x}
          y={contextMenu.y}
          items={gridMenuItems(workspace, focusGrid)}
          onClose={() => {
            setContextMenu(null)
            focusGrid()
          }}
        />
      )}
      <GoToDialog
        open={state.goToOpen}
        onClose={() => {
          workspace.closeGoTo()
          refocusAfterDialog()
        }}
        onGo={goTo}
      />
    </div>
  )
}

export type { FunctionSuggestion }
