/**
 * The sheet's layout through set_sheet_view: "freeze the top row", "freeze the header row and the
 * labels", "freeze panes at B2", "unfreeze", "hide column C", "unhide rows 5 to 7", "set the width of
 * column A to 30", "make column A wider". Cells are not touched.
 */
import { columnToLetters, lettersToColumn, tryParseAddress } from '@finsheet/workbook'
import type { PlannerCommand, TargetSpec } from '../command-language.js'
import { readAs } from '../answers.js'
import { stop, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { resolveTarget } from '../targets.js'
import { lookOver, useToolOrStop } from '../tool-steps.js'
import type { SheetView, WorkbookView } from '../workbook-view.js'

type Command = Extract<PlannerCommand, { type: 'layout' }>

/** A column "wider" or "narrower" than the default 100 pixels, when its width is not known. */
const WIDER = 180
const NARROWER = 60

/** Excel's column width in characters as pixels (7 per character of the default font, and the margins). */
const charactersToPixels = (characters: number) => Math.round(characters * 7 + 5)

/** A target on the sheet the command is about, unless it names its own. */
const onSheet = (target: TargetSpec, sheet: SheetView): TargetSpec => (target.sheet === undefined ? { ...target, sheet: sheet.name } : target)

/** Rows ("5:7") or columns ("C:E") a target names, as set_sheet_view takes them, and how to say them. */
function* spanOf(view: WorkbookView, target: TargetSpec, sheet: SheetView, context: PlanContext): Step<{ span: string; said: string }> {
  if (target.kind === 'label') {
    const text = target.text.replace(/\$/g, '').trim()
    if (/^(all\s+)?(the\s+)?(hidden\s+)?rows$/i.test(text)) return { span: `1:${(sheet.used?.bottom ?? 0) + 1}`, said: 'every row' }
    if (/^(all\s+)?(the\s+)?(hidden\s+)?columns$/i.test(text)) return { span: `A:${columnToLetters(sheet.used?.right ?? 0)}`, said: 'every column' }
    if (/^[A-Z]{1,3}(:[A-Z]{1,3})?$/i.test(text) && text.split(':').every((letters) => lettersToColumn(letters) >= 0)) return { span: text.toUpperCase(), said: `column${text.includes(':') ? 's' : ''} ${text.toUpperCase()}` }
    if (/^\d+(:\d+)?$/.test(text)) return { span: text, said: `row${text.includes(':') ? 's' : ''} ${text}` }
  }
  const found = yield* resolveTarget(view, onSheet(target, sheet), context, { clamp: false })
  if (found.whole === 'columns' || target.kind === 'columns') {
    const [left, right] = [columnToLetters(found.range.left), columnToLetters(found.range.right)]
    return { span: left === right ? left : `${left}:${right}`, said: left === right ? `column ${left}` : `columns ${left}–${right}` }
  }
  if (found.whole === 'rows' || found.label) {
    const [top, bottom] = [found.range.top + 1, found.range.bottom + 1]
    return { span: top === bottom ? String(top) : `${top}:${bottom}`, said: `${top === bottom ? `row ${top}` : `rows ${top}–${bottom}`}${found.label ? ` (${found.label.label.text})` : ''}` }
  }
  stop(`${found.described} is not whole rows or columns: say “hide column C” or “hide rows 5 to 7”.`)
}

export function* planLayout(command: Command, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const named = command.sheet ?? command.hide?.sheet ?? command.unhide?.sheet ?? command.width?.target.sheet
  const sheet = view.sheetFor(named, context.activeSheet)
  const args: Record<string, unknown> = { sheet: sheet.name }
  const said: string[] = []
  if (command.freeze) {
    let rows: number
    let columns: number
    if ('at' in command.freeze) {
      const at = tryParseAddress(command.freeze.at)
      if (!at) stop(`“${command.freeze.at}” is not a cell.`)
      rows = at.row
      columns = at.col
    } else {
      rows = command.freeze.rows === 'header' ? (sheet.headerRows[0]?.row ?? 0) + 1 : command.freeze.rows
      columns = command.freeze.columns === 'labels' ? (sheet.labelColumn ?? 0) + 1 : command.freeze.columns
    }
    args.freeze = { rows, columns }
    said.push(rows === 0 && columns === 0 ? `unfreeze the panes of ${sheet.name}` : `freeze ${[rows > 0 ? `rows 1–${rows}` : '', columns > 0 ? `columns A–${columnToLetters(columns - 1)}` : ''].filter(Boolean).join(' and ')} of ${sheet.name}`.replace('rows 1–1 ', 'row 1 ').replace('columns A–A ', 'column A '))
  }
  for (const [key, target] of [['hide', command.hide], ['unhide', command.unhide]] as const) {
    if (!target) continue
    const { span, said: what } = yield* spanOf(view, target, sheet, context)
    args[key] = [span]
    said.push(`${key === 'hide' ? 'hide' : 'show again'} ${what} of ${sheet.name}`)
  }
  if (command.width) {
    const found = yield* resolveTarget(view, onSheet(command.width.target, sheet), context, { clamp: false })
    const [left, right] = [columnToLetters(found.range.left), columnToLetters(found.range.right)]
    const columns = left === right ? left : `${left}:${right}`
    const { value, unit, change } = command.width
    let width: number
    let how: string
    if (change !== undefined) {
      width = change === 'wider' ? WIDER : NARROWER
      how = `${change}: ${width} pixels (a column is 100 by default)`
    } else if (unit === 'characters' || (unit === undefined && value! <= 60)) {
      width = charactersToPixels(value!)
      how = `${value} characters wide, as Excel counts them (${width} pixels)`
    } else {
      width = value!
      how = `${width} pixels wide`
    }
    if (width > 2000) stop(`${width} pixels is wider than a column may be (2,000).`)
    args.columnWidths = [{ columns, width }]
    said.push(`make ${left === right ? `column ${left}` : `columns ${left}–${right}`} of ${sheet.name} ${how}`)
  }
  const paraphrase = said.join(', and ')
  const result = yield* useToolOrStop('set_sheet_view', args, paraphrase)
  return { text: readAs(paraphrase, `Done: ${((result.content?.done ?? []) as string[]).join('; ')}.${command.hide ? ' Hidden cells are still there: formulas read them as before.' : ''}`) }
}
