/**
 * A changeset's draft applied to the open workbook while one request's tool calls run, under the
 * workbook's lock: reads see what the agent wrote so far, writes add to it, and before the lock is
 * released every command is undone again with the exact inverse the workbook model returned, so that
 * the open workbook is what the store holds. Nothing here is stored; the caller drops the open
 * workbook if undoing fails, so that it is loaded again from the store, which never saw the draft.
 *
 * The session follows the cells the draft wrote and recalculated through later insertions and
 * deletions of rows and columns, so that it always knows where they are now, and where each was
 * before the draft.
 */
import type { WorkbookCommand } from '@finsheet/contracts'
import {
  cellKey,
  formatAddress,
  formatSheetPrefix,
  moveAddress,
  parseAddress,
  splitKey,
  type ApplyResult,
  type ChartRecord,
  type SheetRecord,
  type WorkbookModel,
} from '@finsheet/workbook'
import { insightOf } from './insight.js'
import type { SheetLayout } from './sheet-layout.js'

/** A structural edit as applied (rows, columns, or a whole sheet deleted), for following cells through it. */
interface StructuralStep {
  sheetId: string
  axis: 'rows' | 'columns' | 'sheet'
  kind: 'insert' | 'delete'
  at: number
  count: number
}

interface Checkpoint {
  layers: number
  added: number
  steps: number
  written: Set<string>
  touched: Set<string>
  recalculated: Set<string>
}

/** What was written or recalculated by the draft, by cell key (sheet id!A1). */
export interface DraftEffects {
  /** Cells whose content, style or format the draft wrote. */
  touched: Set<string>
  /** Cells whose value the engine recalculated. */
  recalculated: Set<string>
}

export interface DraftSource {
  /** Names the draft in the stamps of what tools work out under it: unique per changeset. */
  id: string
  /** Commands as the API sends them (sheets by name), in order. */
  commands: readonly WorkbookCommand[]
  /** Cells (sheet id!A1) written by the draft, where the whole draft leaves them; writes may replace them without overwrite. */
  written: readonly string[]
}

/** The structural edits among a change's applied commands, in order. */
function structuralSteps(state: WorkbookModel, result: ApplyResult): StructuralStep[] {
  if (!result.structural) return []
  const steps: StructuralStep[] = []
  const idOf = (ref: string) => (state.refs === 'id' ? ref : state.sheets.find((sheet) => sheet.name === ref)?.id)
  for (const command of result.applied) {
    if (command.type === 'delete-sheet') {
      steps.push({ sheetId: idOf(command.name) ?? command.name, axis: 'sheet', kind: 'delete', at: 0, count: 0 })
      continue
    }
    if (command.type !== 'insert-rows' && command.type !== 'delete-rows' && command.type !== 'insert-columns' && command.type !== 'delete-columns') continue
    const sheetId = idOf(command.sheet)
    if (sheetId === undefined) continue
    steps.push({ sheetId, axis: command.type.endsWith('rows') ? 'rows' : 'columns', kind: command.type.startsWith('insert') ? 'insert' : 'delete', at: command.at, count: command.count })
  }
  return steps
}

/** Cell keys moved through structural edits; cells deleted (or on a deleted sheet) go. */
function movedKeys(keys: Set<string>, steps: readonly StructuralStep[]): Set<string> {
  const moved = new Set<string>()
  for (const key of keys) {
    const { sheetId, address } = splitKey(key)
    let position: { row: number; col: number } | undefined = parseAddress(address)
    for (const step of steps) {
      if (!position || step.sheetId !== sheetId) continue
      position = step.axis === 'sheet' ? undefined : moveAddress(position.row, position.col, { axis: step.axis, kind: step.kind, at: step.at, count: step.count })
    }
    if (position) moved.add(cellKey(sheetId, formatAddress(position.row, position.col)))
  }
  return moved
}

export class DraftSession {
  private readonly layers: ApplyResult[] = []
  /** Commands applied by this request's calls, in order. */
  readonly added: WorkbookCommand[] = []
  /** Cells the draft wrote (written again without overwrite), where they are now. */
  private written = new Set<string>()
  /** Cells whose content, style or format the draft and the calls wrote, where they are now. */
  private touched = new Set<string>()
  /** Cells whose value the engine recalculated, where they are now. */
  private recalculated = new Set<string>()
  /** The row, column and sheet deletions and insertions applied, in order. */
  private readonly steps: StructuralStep[] = []
  private readonly addedSheets = new Set<string>()
  private readonly affectedSheets = new Set<string>()
  private restructured = false
  private readonly charts: ChartRecord[]
  private closed = false

  private constructor(
    readonly state: WorkbookModel,
    private readonly source: DraftSource,
  ) {
    this.charts = state.charts.map((chart) => ({ ...chart }))
  }

  /**
   * Applies a draft to the open workbook, command by command (so that cells written before a row was
   * inserted are followed to where the insertion moved them). A draft that no longer applies throws a
   * CommandError, having changed nothing.
   */
  static open(state: WorkbookModel, source: DraftSource): DraftSession {
    const session = new DraftSession(state, source)
    try {
      for (const command of source.commands) session.push(state.apply([command], { refs: 'name' }))
    } catch (error) {
      session.close()
      throw error
    }
    session.written = new Set(source.written)
    return session
  }

  private push(result: ApplyResult): void {
    this.layers.push(result)
    if (result.structural) this.restructured = true
    const steps = structuralSteps(this.state, result)
    if (steps.length > 0) {
      this.touched = movedKeys(this.touched, steps)
      this.recalculated = movedKeys(this.recalculated, steps)
      this.written = movedKeys(this.written, steps)
      this.steps.push(...steps)
    }
    for (const key of result.touched) {
      this.touched.add(key)
      this.affectedSheets.add(splitKey(key).sheetId)
    }
    for (const command of result.applied) if (command.type === 'add-sheet' && command.id !== undefined) this.addedSheets.add(command.id)
    for (const change of result.engineChanges) {
      const sheet = this.state.findSheet(change.sheet)
      if (!sheet) continue
      this.recalculated.add(cellKey(sheet.id, change.address))
      this.affectedSheets.add(sheet.id)
    }
  }

  /** Whether a draft or this request's calls changed anything. */
  get changed(): boolean {
    return this.layers.length > 0
  }

  /** Whether this request's calls wrote anything. */
  get wrote(): boolean {
    return this.added.length > 0
  }

  /** The number of commands applied so far, draft and calls. */
  get commandCount(): number {
    return this.source.commands.length + this.added.length
  }

  /** Names the workbook's state now: its revision and the draft applied to it. */
  stamp(): string {
    return this.changed ? `${this.state.revision}|${this.source.id}:${this.commandCount}` : `${this.state.revision}|`
  }

  /** Names a sheet's state now: unchanged by the draft, it keeps the stamp of the stored workbook. */
  sheetStamp(sheet: SheetRecord): string {
    return this.restructured || this.affectedSheets.has(sheet.id) ? this.stamp() : `${this.state.revision}|`
  }

  layout(sheet: SheetRecord): SheetLayout {
    return insightOf(this.state).layout(sheet, this.sheetStamp(sheet))
  }

  /** A sheet's layout as it is now if it is kept already (after close: as stored). */
  keptLayout(sheet: SheetRecord): SheetLayout | undefined {
    return insightOf(this.state).keptLayout(sheet, this.closed ? `${this.state.revision}|` : this.sheetStamp(sheet))
  }

  /** Something worked out from the whole workbook as it is now, kept while it stays so. */
  piece<T>(name: string, build: () => T): T {
    return insightOf(this.state).piece(name, this.stamp(), build)
  }

  /** Applies a call's commands on top of the draft; a refused command throws a CommandError, having changed nothing. */
  write(commands: WorkbookCommand[]): ApplyResult {
    const result = this.state.apply(commands, { refs: 'name' })
    this.push(result)
    this.added.push(...commands)
    for (const key of result.touched) this.written.add(key)
    return result
  }

  /** Where the session stands, to go back to when a call fails after it wrote. */
  checkpoint(): Checkpoint {
    return {
      layers: this.layers.length,
      added: this.added.length,
      steps: this.steps.length,
      written: new Set(this.written),
      touched: new Set(this.touched),
      recalculated: new Set(this.recalculated),
    }
  }

  /** Undoes what was applied since a checkpoint (a call that failed part way), newest first. */
  rollBackTo(checkpoint: Checkpoint): void {
    while (this.layers.length > checkpoint.layers) {
      const layer = this.layers.pop() as ApplyResult
      this.state.apply(layer.inverse, { refs: this.state.refs })
    }
    this.added.length = checkpoint.added
    this.steps.length = checkpoint.steps
    this.written = checkpoint.written
    this.touched = checkpoint.touched
    this.recalculated = checkpoint.recalculated
  }

  /** Applies commands, reads the workbook with them, and undoes them again (a formula tried out). */
  probe<T>(commands: WorkbookCommand[], read: (result: ApplyResult) => T): T {
    const result = this.state.apply(commands, { refs: 'name' })
    try {
      return read(result)
    } finally {
      this.state.apply(result.inverse, { refs: this.state.refs })
    }
  }

  /** Whether the draft wrote a cell (it may be written again without overwrite). */
  wasWritten(sheetId: string, address: string): boolean {
    return this.written.has(cellKey(sheetId, address))
  }

  /** Every cell the draft wrote, for the changeset to keep. */
  writtenCells(): string[] {
    return [...this.written]
  }

  /** What the draft and the calls wrote and recalculated, by cell key in the workbook as it is now. */
  effects(): DraftEffects {
    return { touched: new Set(this.touched), recalculated: new Set(this.recalculated) }
  }

  /**
   * Where a cell of the workbook as it is now was before the draft (undefined for a cell of an
   * inserted row or column, or of an added sheet), by following the structural edits backwards.
   */
  originOf(): (sheetId: string, row: number, col: number) => { row: number; col: number } | undefined {
    const steps = [...this.steps]
    const added = new Set(this.addedSheets)
    return (sheetId, row, col) => {
      if (added.has(sheetId)) return undefined
      let position = { row, col }
      for (let i = steps.length - 1; i >= 0; i--) {
        const step = steps[i]
        if (step.sheetId !== sheetId || step.axis === 'sheet') continue
        const index = step.axis === 'rows' ? position.row : position.col
        let before: number
        if (step.kind === 'insert') {
          if (index >= step.at + step.count) before = index - step.count
          else if (index >= step.at) return undefined
          else before = index
        } else before = index >= step.at ? index + step.count : index
        position = step.axis === 'rows' ? { row: before, col: position.col } : { row: position.row, col: before }
      }
      return position
    }
  }

  /**
   * Undoes every command, newest first, so that the open workbook is as the store holds it. Throws if
   * an inverse is refused (the caller then drops the open workbook).
   */
  close(): void {
    if (this.closed) return
    this.closed = true
    for (let i = this.layers.length - 1; i >= 0; i--) this.state.apply(this.layers[i].inverse, { refs: this.state.refs })
    // Charts a deleted range took with it are not brought back by the inverse; they are put back as they were.
    this.state.charts = this.charts
  }
}

/** `Sheet!A1` as people read it. */
export function cellText(sheetName: string, row: number, col: number): string {
  return `${formatSheetPrefix(sheetName)}!${formatAddress(row, col)}`
}
