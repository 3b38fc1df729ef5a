import type { WorkbookCommand } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import { cellAddress, rangeAddress } from '../grid/address'
import { sheetPrefix } from '../grid/formula-editing'
import { selectionRange } from '../grid/selection'
import { FindReplaceDialog } from './FindReplaceDialog'
import { GoalSeekDialog } from './GoalSeekDialog'
import { DataValidationDialog } from './DataValidationDialog'
import { ruleAt, validationCommand } from './data-validation'
import { ConditionalFormatDialog } from './ConditionalFormatDialog'
import { NameManagerDialog } from './NameManagerDialog'
import { LinkDialog, NoteDialog } from './NoteLinkDialogs'
import { noteAt } from './cell-annotations'
import type { Workspace } from './workspace'
import { OpenedOnce } from '../ui/OpenedOnce'
import './tool-dialogs.css'

interface ToolDialogsProps {
  workspace: Workspace
  /** selects a range on a sheet (switching to it) and scrolls it into view */
  show(sheet: string, range: CellRange): void
  /** after a dialog closes: the grid takes the keyboard again */
  onClosed(): void
}

/** The absolute reference of a range with its sheet, as a new name refers to it ('=Sheet1!$B$2:$B$9'). */
function absoluteReference(sheet: string, range: CellRange): string {
  const absolute = (text: string) => text.replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')
  return `=${sheetPrefix(sheet)}${absolute(rangeAddress(range))}`
}

/** Find and Replace, the Name Manager, Goal Seek and Conditional formatting over the open workbook: whichever the workspace opened. */
export function ToolDialogs({ workspace, show, onClosed }: ToolDialogsProps) {
  const { store, sheet, selection, tool } = workspace.state
  if (!store) return null
  const close = () => {
    workspace.closeTool()
    onClosed()
  }
  // Each change is one command on the undo history, saved as every edit is.
  const write = (command: WorkbookCommand) => workspace.dispatch(command)
  return (
    <>
      <OpenedOnce open={tool === 'find' || tool === 'replace'}>
        {() => (
          <FindReplaceDialog
            mode={tool === 'find' || tool === 'replace' ? tool : null}
            workbook={store}
            where={() => ({ sheet: workspace.state.sheet, ...workspace.state.selection.active })}
            onShow={(cell) => show(cell.sheet, { startCol: cell.col, startRow: cell.row, endCol: cell.col, endRow: cell.row })}
            onReplace={write}
            onMode={(mode) => workspace.openTool(mode)}
            onClose={close}
          />
        )}
      </OpenedOnce>
      <OpenedOnce open={tool === 'names'}>
        {(open) => (
          <NameManagerDialog
            open={open}
            workbook={store}
            activeSheet={sheet}
            selectionReference={absoluteReference(sheet, selectionRange(selection))}
            onChange={write}
            onClose={close}
          />
        )}
      </OpenedOnce>
      <OpenedOnce open={tool === 'goal-seek'}>
        {(open) => (
          <GoalSeekDialog
            open={open}
            workbook={store}
            activeSheet={sheet}
            activeCell={cellAddress(selection.active)}
            onApply={(command) => {
              write(command)
              close()
            }}
            onClose={close}
          />
        )}
      </OpenedOnce>
      <OpenedOnce open={tool === 'data-validation'}>
        {(open) => (
          <DataValidationDialog
            open={open}
            range={selectionRange(selection)}
            active={selection.active}
            rule={ruleAt(store, sheet, selection.active)}
            context={{ sheetNames: store.sheetNames, definedNames: store.definedNames, activeSheet: sheet }}
            onApply={(rule) => {
              write(validationCommand(sheet, selectionRange(selection), rule))
              close()
            }}
            onClose={close}
          />
        )}
      </OpenedOnce>
      <OpenedOnce open={tool === 'note'}>
        {(open) => (
          <NoteDialog
            open={open}
            sheet={sheet}
            cell={selection.active}
            note={noteAt(store.sheet(sheet)?.layout, selection.active)}
            author={workspace.noteAuthor}
            onSave={(command) => {
              write(command)
              close()
            }}
            onClose={close}
          />
        )}
      </OpenedOnce>
      <OpenedOnce open={tool === 'link'}>
        {(open) => (
          <LinkDialog
            open={open}
            sheet={sheet}
            cell={selection.active}
            url={store.sheet(sheet)?.layout?.links?.[cellAddress(selection.active)]}
            onSave={(command) => {
              write(command)
              close()
            }}
            onClose={close}
          />
        )}
      </OpenedOnce>
      <OpenedOnce open={tool === 'conditional-formats'}>
        {(open) => (
          <ConditionalFormatDialog
            open={open}
            sheet={sheet}
            rules={store.sheet(sheet)?.conditionalFormats ?? []}
            selectionRange={rangeAddress(selectionRange(selection))}
            onChange={write}
            onClose={close}
          />
        )}
      </OpenedOnce>
    </>
  )
}
