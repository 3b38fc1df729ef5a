import { MAX_MERGED_CELLS, mergeTooLargeMessage } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import { rangeAddress } from '../grid/address'
import type { Selection } from '../grid/selection'
import { selectionRange, singleCellSelection } from '../grid/selection'
import type { CellStyle } from '../grid/types'
import type { StylePatch, WorkbookCommand } from '@finsheet/contracts'
import { nextSheetName } from '@finsheet/workbook/model'
import { clampZoom } from '../grid/geometry'
import type { WorkbookSnapshot } from '../workbook/workbook-store'
import { WorkbookStore } from '../workbook/workbook-store'
import { isEngineError } from '../workbook/calc-engine'
import { borderCommand, type BorderChoice } from './borders'
import { traceDependents, tracePrecedents, type TraceSource, type TraceState } from './trace-arrows'

export type WorkbookStatus = 'none' | 'loading' | 'ready'

/**
 * Undo and redo kept somewhere else than the store: the spreadsheet service's, for the
 * workbooks it keeps, so undo reverts whole changes the same way for every client.
 */
export interface RemoteHistory {
  readonly canUndo: boolean
  readonly canRedo: boolean
  undo(): Promise<void>
  redo(): Promise<void>
}

/** The copied or cut block, shown with marching ants until it is pasted or Escape is pressed. */
export interface CopyMark {
  sheet: string
  range: CellRange
  cut: boolean
  /** the clipboard text written, to recognise our own copy when it is pasted back */
  text: string
  inputs: string[][]
  styles: (CellStyle | undefined)[][]
  formats: (string | undefined)[][]
}

export interface WorkspaceState {
  status: WorkbookStatus
  store: WorkbookStore | null
  /** the active sheet's name */
  sheet: string
  selection: Selection
  /** the store's revision, so views re-render when cells change */
  revision: number
  copy: CopyMark | null
  /** the Go To dialog (Ctrl+G, Edit menu) */
  goToOpen: boolean
  /** the Format Cells dialog (Ctrl+1, Format menu) */
  formatCellsOpen: boolean
  /** the Paste Special dialog (Ctrl+Shift+V, Edit menu) */
  pasteSpecialOpen: boolean
  /** the tool dialog open over the grid: Find and Replace, the Name Manager or Goal Seek */
  tool: SpreadsheetTool | null
  /** ranges the assistant outlines: the cells of a changeset being previewed, or just applied */
  assistantHighlights: readonly AssistantHighlight[]
  /** the grid's zoom, 1 for 100%: this user's view, not an edit of the workbook */
  zoom: number
  /** the Unhide sheet dialog (Format menu, sheet tab menu) */
  unhideSheetOpen: boolean
  /** Trace Precedents and Trace Dependents: the cells traced, whose arrows the grid draws */
  trace: TraceState | null
  /** the sheet filter's dropdown of one column, when open */
  filterMenu: FilterMenu | null
  /** the chart on the active sheet that is selected, and whether its editor is open */
  chartFocus: { id: string; editing: boolean } | null
}

/** Dialogs that work on the open workbook: Find (Ctrl+F), Replace (Ctrl+H), Name Manager (Ctrl+F3), Goal Seek. */
export type SpreadsheetTool = 'find' | 'replace' | 'names' | 'goal-seek' | 'sort' | 'note' | 'link' | 'conditional-formats' | 'data-validation'

/** A filter column's dropdown, open below its header's button (`at`, in the page) or below the active cell. */
export interface FilterMenu {
  column: number
  at: { clientX: number; clientY: number } | null
}

/** A range the assistant outlines on the grid. */
export interface AssistantHighlight {
  sheet: string
  range: CellRange
  /** `preview`: a changeset not applied yet (dashed); `applied`: cells it just changed */
  kind: 'preview' | 'applied'
}

/**
 * What the spreadsheet screen works on: the open workbook, its active sheet and the selection.
 * The grid, the formula bar, the toolbar, the menus and the status bar all read and change it
 * here, so a toolbar click styles exactly the cells the grid has selected.
 */
export class Workspace {
  private current: WorkspaceState = {
    status: 'none',
    store: null,
    sheet: '',
    selection: singleCellSelection({ col: 0, row: 0 }),
    revision: 0,
    copy: null,
    goToOpen: false,
    formatCellsOpen: false,
    pasteSpecialOpen: false,
    tool: null,
    assistantHighlights: [],
    zoom: storedZoom(),
    unhideSheetOpen: false,
    trace: null,
    filterMenu: null,
    chartFocus: null,
  }
  private readonly listeners = new Set<() => void>()
  private unsubscribeStore: (() => void) | null = null
  /** set by the grid: gives it the keyboard back after a toolbar or menu action */
  focusGridHandler: (() => void) | null = null
  private remoteHistory: RemoteHistory | null = null
  /** who writes the notes inserted in this session (the signed-in user's name) */
  noteAuthor: string | undefined

  get state(): WorkspaceState {
    return this.current
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Returns the keyboard to the grid, as spreadsheet programs do after a toolbar or menu action. */
  focusGrid(): void {
    this.focusGridHandler?.()
  }

  setLoading(): void {
    this.update({ status: 'loading' })
  }

  /**
   * Opens a workbook (replacing any open one) on the given sheet or its first: a snapshot, or a store
   * already built from one (built while nothing else was happening, so that showing it is quicker).
   */
  open(workbook: WorkbookSnapshot | WorkbookStore, activeSheet?: string): WorkbookStore {
    const store = this.attach(workbook)
    const sheet = activeSheet && store.sheet(activeSheet) ? activeSheet : store.sheetNames[0]
    this.update({
      status: 'ready',
      store,
      sheet,
      selection: singleCellSelection({ col: 0, row: 0 }),
      revision: store.revision,
      copy: null,
      trace: null,
    })
    return store
  }

  /**
   * Puts the open workbook's content back as the server has it, leaving the user where they are: the
   * same sheet (or the first, when it is gone), the same selection, the copy mark while its sheet exists.
   */
  reopen(snapshot: WorkbookSnapshot): WorkbookStore {
    const { sheet, selection, copy } = this.current
    const store = this.attach(snapshot)
    const stays = store.sheet(sheet) !== undefined
    this.update({
      status: 'ready',
      store,
      sheet: stays ? sheet : store.sheetNames[0],
      selection: stays ? selection : singleCellSelection({ col: 0, row: 0 }),
      revision: store.revision,
      copy: copy && store.sheet(copy.sheet) ? copy : null,
    })
    return store
  }

  private attach(workbook: WorkbookSnapshot | WorkbookStore): WorkbookStore {
    this.unsubscribeStore?.()
    this.remoteHistory = null
    const store = workbook instanceof WorkbookStore ? workbook : new WorkbookStore(workbook)
    const unsubscribe = store.subscribe(() => this.update({ revision: store.revision }))
    // Excel removes tracer arrows when rows, columns or cells move under them
    const untrace = store.onChange((change) => {
      if (this.current.trace && movesCells(change.command)) this.update({ trace: null })
    })
    this.unsubscribeStore = () => {
      unsubscribe()
      untrace()
    }
    return store
  }

  close(): void {
    this.unsubscribeStore?.()
    this.unsubscribeStore = null
    this.remoteHistory = null
    this.update({ status: 'none', store: null, sheet: '', copy: null, trace: null })
  }

  setSelection(selection: Selection): void {
    this.update({ selection })
  }

  /**
   * Trace Precedents (Excel's Formula Auditing) from the active cell, one level further per call;
   * returns how many formula cells were traced, 0 when there was nothing further.
   */
  tracePrecedents(): number {
    return this.trace(tracePrecedents)
  }

  /** Trace Dependents from the active cell, one level further per call. */
  traceDependents(): number {
    return this.trace(traceDependents)
  }

  removeArrows(): void {
    this.update({ trace: null })
  }

  private trace(step: typeof tracePrecedents): number {
    const { store, sheet, selection } = this.current
    if (!store) return 0
    const { state, added } = step(this.current.trace, sheet, selection.active, traceSourceOf(store))
    this.update({ trace: state })
    return added
  }

  setCopy(copy: CopyMark | null): void {
    this.update({ copy })
  }

  openGoTo(): void {
    this.update({ goToOpen: true })
  }

  closeGoTo(): void {
    this.update({ goToOpen: false })
  }

  openFormatCells(): void {
    this.update({ formatCellsOpen: true })
  }

  closeFormatCells(): void {
    this.update({ formatCellsOpen: false })
  }

  openPasteSpecial(): void {
    this.update({ pasteSpecialOpen: true })
  }

  closePasteSpecial(): void {
    this.update({ pasteSpecialOpen: false })
  }

  openTool(tool: SpreadsheetTool): void {
    if (this.current.store) this.update({ tool })
  }

  closeTool(): void {
    this.update({ tool: null })
  }

  openFilterMenu(menu: FilterMenu): void {
    if (this.current.store) this.update({ filterMenu: menu })
  }

  closeFilterMenu(): void {
    this.update({ filterMenu: null })
  }

  /** Replaces the assistant's highlights of one kind, leaving the other kind as it is. */
  setAssistantHighlights(kind: AssistantHighlight['kind'], highlights: readonly Omit<AssistantHighlight, 'kind'>[]): void {
    const kept = this.current.assistantHighlights.filter((highlight) => highlight.kind !== kind)
    if (kept.length === this.current.assistantHighlights.length && highlights.length === 0) return
    this.update({ assistantHighlights: [...kept, ...highlights.map((highlight) => ({ ...highlight, kind }))] })
  }

  /**
   * Shows another sheet at once (the same sheet is ignored): whoever saves hears the switch and saves
   * in the background, so a click on a tab never waits on the network. The new sheet opens at A1
   * unless a selection is given.
   */
  switchSheet(name: string, selection?: Selection): void {
    const { store, sheet } = this.current
    if (!store || name === sheet || !store.sheet(name)) return
    this.update({ sheet: name, selection: selection ?? singleCellSelection({ col: 0, row: 0 }), chartFocus: null })
  }

  /** Selects a chart of the active sheet (null: none), with its editor open or not. */
  focusChart(id: string | null, editing = false): void {
    this.update({ chartFocus: id === null ? null : { id, editing } })
  }

  /** Ctrl+PgDn / Ctrl+PgUp: the next or previous shown sheet, wrapping round. */
  stepSheet(direction: 1 | -1): void {
    const { store, sheet } = this.current
    if (!store) return
    const names = store.visibleSheetNames
    const index = names.indexOf(sheet)
    if (names.length === 0) return
    this.switchSheet(names[(index + direction + names.length) % names.length])
  }

  /** The zoom, kept as this user's view setting (50% to 200%). */
  setZoom(zoom: number): void {
    const next = clampZoom(zoom)
    if (next === this.current.zoom) return
    keepZoom(next)
    this.update({ zoom: next })
  }

  /** Hides a sheet's tab; the shown sheet moves to the next one still shown. Throws when it is the last one shown. */
  hideSheet(name: string): void {
    const { store, sheet } = this.current
    if (!store) return
    const shown = store.visibleSheetNames
    const index = shown.indexOf(name)
    store.dispatch({ type: 'set-sheet-view', sheet: name, hidden: true })
    if (sheet === name) {
      const rest = store.visibleSheetNames
      this.update({ sheet: rest[Math.min(index, rest.length - 1)], selection: singleCellSelection({ col: 0, row: 0 }) })
    }
  }

  /** Shows a hidden sheet again and goes to it. */
  unhideSheet(name: string): void {
    const { store } = this.current
    if (!store) return
    store.dispatch({ type: 'set-sheet-view', sheet: name, hidden: false })
    this.update({ sheet: name, selection: singleCellSelection({ col: 0, row: 0 }), unhideSheetOpen: false })
  }

  openUnhideSheet(): void {
    this.update({ unhideSheetOpen: true })
  }

  closeUnhideSheet(): void {
    this.update({ unhideSheetOpen: false })
  }

  /** The next unused SheetN is appended and becomes active. */
  addSheet(): string | null {
    const { store } = this.current
    if (!store) return null
    const name = nextSheetName(store.sheetNames)
    store.dispatch({ type: 'add-sheet', name })
    this.update({ sheet: name, selection: singleCellSelection({ col: 0, row: 0 }) })
    return name
  }

  renameSheet(from: string, to: string): void {
    const { store, sheet } = this.current
    if (!store || from === to) return
    store.dispatch({ type: 'rename-sheet', from, to })
    if (sheet === from) this.update({ sheet: to })
  }

  moveSheet(name: string, index: number): void {
    const { store } = this.current
    if (!store || store.sheetNames.indexOf(name) === index) return
    store.dispatch({ type: 'move-sheet', name, index })
  }

  deleteSheet(name: string): void {
    const { store, sheet } = this.current
    if (!store) return
    const index = store.sheetNames.indexOf(name)
    store.dispatch({ type: 'delete-sheet', name })
    if (sheet === name) {
      const names = store.sheetNames
      this.update({ sheet: names[Math.min(index, names.length - 1)], selection: singleCellSelection({ col: 0, row: 0 }) })
    }
  }

  dispatch(command: WorkbookCommand): void {
    this.current.store?.dispatch(command)
  }

  /** Merges a style patch into every selected cell (toolbar buttons and shortcuts). */
  styleSelection(style: StylePatch): void {
    const { store, sheet, selection } = this.current
    if (!store) return
    store.dispatch({ type: 'format-cells', sheet, ranges: [rangeAddress(store.clampToUsed(sheet, selectionRange(selection)))], style })
  }

  /** Draws a border choice of the Borders menu on the selection, as one undoable change. */
  borderSelection(choice: BorderChoice): void {
    const { store, sheet, selection } = this.current
    if (!store) return
    store.dispatch(borderCommand(sheet, store.clampToUsed(sheet, selectionRange(selection)), choice))
  }

  /** Sets the number format of every selected cell; null returns them to General. */
  formatSelection(format: string | null): void {
    const { store, sheet, selection } = this.current
    if (!store) return
    store.dispatch({ type: 'format-cells', sheet, ranges: [rangeAddress(store.clampToUsed(sheet, selectionRange(selection)))], format })
  }

  /**
   * Merge & center: merges the selected block into one centred cell, or, when the selection is
   * merged, unmerges it. Throws, changing nothing, when the block overlaps another merge or spans
   * more cells than a merge may.
   */
  toggleMerge(): void {
    const { store, sheet, selection } = this.current
    const model = store?.sheet(sheet)
    if (!store || !model) return
    const merges = model.merges
    const range = merges.expand(selectionRange(selection))
    const inside = merges.intersecting(range)
    if (inside.length > 0) {
      store.dispatch({ type: 'unmerge-cells', sheet, range: rangeAddress(range) })
      return
    }
    if (range.startCol === range.endCol && range.startRow === range.endRow) return
    // Refused here as the service refuses it, before the merge clears every cell of the range.
    const cells = (range.endCol - range.startCol + 1) * (range.endRow - range.startRow + 1)
    if (cells > MAX_MERGED_CELLS) throw new Error(mergeTooLargeMessage(rangeAddress(range), cells))
    const anchor = rangeAddress({ startCol: range.startCol, startRow: range.startRow, endCol: range.startCol, endRow: range.startRow })
    store.dispatch({
      type: 'batch',
      label: `merge ${rangeAddress(range)}`,
      commands: [
        { type: 'merge-cells', sheet, range: rangeAddress(range) },
        { type: 'format-cells', sheet, ranges: [anchor], style: { align: 'center' } },
      ],
    })
    this.update({ selection: singleCellSelection({ col: range.startCol, row: range.startRow }) })
  }

  /** The style of the active cell, for the toolbar's pressed states. */
  activeStyle(): CellStyle | undefined {
    const { store, sheet, selection } = this.current
    return store?.getStyle(sheet, selection.active)
  }

  /** Hands undo and redo to the server (or back to the store with null). */
  setRemoteHistory(history: RemoteHistory | null): void {
    this.remoteHistory = history
    this.refresh()
  }

  /** Views re-read derived state (undo availability, save state) after it changed elsewhere. */
  refresh(): void {
    this.update({})
  }

  get canUndo(): boolean {
    return this.remoteHistory ? this.remoteHistory.canUndo : (this.current.store?.canUndo ?? false)
  }

  get canRedo(): boolean {
    return this.remoteHistory ? this.remoteHistory.canRedo : (this.current.store?.canRedo ?? false)
  }

  /** What undo would revert, for the button's tooltip; the server's history does not say. */
  get undoLabel(): string | null {
    return this.remoteHistory ? null : (this.current.store?.undoLabel ?? null)
  }

  get redoLabel(): string | null {
    return this.remoteHistory ? null : (this.current.store?.redoLabel ?? null)
  }

  /** Undoes the latest change; a sheet it brings back becomes the active one, as in Excel. */
  undo(): void {
    this.followingSheets(() => {
      if (this.remoteHistory) void this.remoteHistory.undo()
      else this.current.store?.undo()
    })
  }

  redo(): void {
    this.followingSheets(() => {
      if (this.remoteHistory) void this.remoteHistory.redo()
      else this.current.store?.redo()
    })
  }

  /**
   * Runs a change of the history and shows a sheet it brought back; when the active sheet went (or
   * was renamed), the one now at its place is shown.
   */
  private followingSheets(change: () => void): void {
    const store = this.current.store
    if (!store) return
    // Shown sheets: undoing a hide shows the sheet again, as undoing a deletion does.
    const before = store.visibleSheetNames
    const index = before.indexOf(this.current.sheet)
    change()
    const after = store.visibleSheetNames
    const added = after.length > before.length ? after.find((name) => !before.includes(name)) : undefined
    if (added) this.switchSheet(added)
    else if (!after.includes(this.current.sheet)) this.switchSheet(after[Math.min(Math.max(index, 0), after.length - 1)])
  }

  private update(patch: Partial<WorkspaceState>): void {
    this.current = { ...this.current, ...patch }
    for (const listener of this.listeners) listener()
  }
}

const ZOOM_KEY = 'finsheet.zoom'

/** The zoom this browser's user chose last; 100% when none. */
function storedZoom(): number {
  try {
    const kept = Number(globalThis.localStorage?.getItem(ZOOM_KEY))
    return Number.isFinite(kept) && kept > 0 ? clampZoom(kept) : 1
  } catch {
    return 1
  }
}

function keepZoom(zoom: number): void {
  try {
    globalThis.localStorage?.setItem(ZOOM_KEY, String(zoom))
  } catch {
    // A browser that keeps nothing (private mode) still zooms this page.
  }
}

/** Commands after which cells are no longer where a trace found them. */
function movesCells(command: WorkbookCommand): boolean {
  if (command.type === 'batch') return command.commands.some(movesCells)
  return ['insert-rows', 'delete-rows', 'insert-columns', 'delete-columns', 'move-cells', 'delete-sheet', 'rename-sheet'].includes(command.type)
}

/** The workbook as tracing reads it. */
export function traceSourceOf(store: WorkbookStore): TraceSource {
  return {
    sheetNames: store.sheetNames,
    names: store.definedNames,
    forEachFormula: (sheet, visit) => store.forEachFormula(sheet, visit),
    formulaAt: (sheet, pos) => {
      const input = store.getInput(sheet, pos)
      return input.startsWith('=') ? input : ''
    },
    isError: (sheet, pos) => isEngineError(store.getValue(sheet, pos)),
  }
}
