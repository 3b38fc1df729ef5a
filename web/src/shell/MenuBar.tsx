import { CircleHelp } from 'lucide-react'
import type { MenuEntry } from '../ui/Menu'
import { Menu } from '../ui/Menu'

export interface FileMenuActions {
  onNewSpreadsheet(): void
  onImport(): void
  onSaveJson(): void
  onExportXls(): void
  onDownloadXlsx(): void
  onShare(): void
  canDownloadXlsx: boolean
}

export interface EditMenuActions {
  onUndo(): void
  onRedo(): void
  onClear(): void
  onFillDown(): void
  onFillRight(): void
  onGoTo(): void
  canUndo: boolean
  canRedo: boolean
}

interface MenuBarProps {
  file: FileMenuActions
  /** present on the spreadsheet screen */
  edit: EditMenuActions | null
  format: MenuEntry[] | null
  onHelp(): void
}

const comingSoon: MenuEntry[] = [{ custom: () => <p className="menu-note">Coming Soon</p> }]

/** File, Edit, View, Format, Data and Help (spec 1 §2). */
export function MenuBar({ file, edit, format, onHelp }: MenuBarProps) {
  return (
    <div className="menu-bar" role="menubar" aria-label="Menu bar">
      <Menu
        label="File"
        entries={[
          { label: 'New Spreadsheet', onSelect: file.onNewSpreadsheet },
          { label: 'Import Document Data', onSelect: file.onImport },
          'separator',
          { label: 'Save (.json)', onSelect: file.onSaveJson },
          { label: 'Export (.xls)', onSelect: file.onExportXls },
          { label: 'Download .xlsx', onSelect: file.onDownloadXlsx, disabled: !file.canDownloadXlsx },
          'separator',
          { label: 'Share', onSelect: file.onShare },
        ]}
      />
      <Menu
        label="Edit"
        entries={
          edit
            ? [
                { label: 'Undo', shortcut: 'Ctrl+Z', onSelect: edit.onUndo, disabled: !edit.canUndo },
                { label: 'Redo', shortcut: 'Ctrl+Y', onSelect: edit.onRedo, disabled: !edit.canRedo },
                'separator',
                { label: 'Clear contents', shortcut: 'Delete', onSelect: edit.onClear },
                { label: 'Fill down', shortcut: 'Ctrl+D', onSelect: edit.onFillDown },
                { label: 'Fill right', shortcut: 'Ctrl+R', onSelect: edit.onFillRight },
                'separator',
                { label: 'Go to…', shortcut: 'Ctrl+G', onSelect: edit.onGoTo },
              ]
            : comingSoon
        }
      />
      <Menu label="View" entries={comingSoon} />
      <Menu label="Format" entries={format ?? comingSoon} />
      <Menu label="Data" entries={comingSoon} />
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
