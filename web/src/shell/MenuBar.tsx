import { CircleHelp } from 'lucide-react'
import type { MenuEntries } from '../ui/Menu'
import { Menu } from '../ui/Menu'

export interface FileMenuActions {
  onNewSpreadsheet(): void
  /** the workbooks list */
  onOpen(): void
  /** a copy of the open workbook, opened */
  onMakeCopy(): void
  onRename(): void
  /** a workbook is open: Make a copy and Rename act on it */
  hasWorkbook: boolean
  onImport(): void
  onSaveJson(): void
  onPageSetup(): void
  onPrint(): void
  onExportPdf(): void
  onDownloadXlsx(): void
  onShare(): void
  canDownloadXlsx: boolean
}

interface MenuBarProps {
  file: FileMenuActions
  /** the Edit, View, Format and Data menus' items, from the action registry (disabled without a workbook) */
  edit: MenuEntries
  insert: MenuEntries
  view: MenuEntries
  format: MenuEntries
  data: MenuEntries
  onHelp(): void
}

/** File, Edit, Insert, View, Format, Data and Help (spec 1 §2). */
export function MenuBar({ file, edit, insert, view, format, data, onHelp }: MenuBarProps) {
  return (
    <div className="menu-bar" role="menubar" aria-label="Menu bar">
      <Menu
        label="File"
        entries={[
          { label: 'New Spreadsheet', onSelect: file.onNewSpreadsheet },
          { label: 'Open…', onSelect: file.onOpen },
          { label: 'Make a copy', onSelect: file.onMakeCopy, disabled: !file.hasWorkbook },
          { label: 'Rename…', onSelect: file.onRename, disabled: !file.hasWorkbook },
          'separator',
          { label: 'Import Document Data', onSelect: file.onImport },
          'separator',
          { label: 'Save (.json)', onSelect: file.onSaveJson },
          { label: 'Download .xlsx', onSelect: file.onDownloadXlsx, disabled: !file.canDownloadXlsx },
          'separator',
          { label: 'Page setup…', onSelect: file.onPageSetup, disabled: !file.hasWorkbook },
          { label: 'Print', onSelect: file.onPrint, disabled: !file.hasWorkbook },
          { label: 'Export PDF', onSelect: file.onExportPdf, disabled: !file.hasWorkbook },
          'separator',
          { label: 'Share', onSelect: file.onShare },
        ]}
      />
      <Menu label="Edit" entries={edit} />
      <Menu label="Insert" entries={insert} />
      <Menu label="View" entries={view} />
      <Menu label="Format" entries={format} />
      <Menu label="Data" entries={data} />
      <button type="button" className="menu-button" onClick={onHelp}>
        Help
      </button>
      <span className="menu-bar-spacer" />
      <button type="button" className="icon-button" aria-label="Help & Support" title="Help & Support" onClick={onHelp}>
        <CircleHelp size={18} aria-hidden="true" />
      </button>
    </div>
  )
}
