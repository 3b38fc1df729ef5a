import { Navigate, Outlet, useNavigate, useRouterState } from '@tanstack/react-router'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useSession } from '../app/app-context'
import { useAuth } from '../auth/auth-context'
import type { CurrentUser } from '../auth/auth-service'
import type { ActionContext, AssistantControls } from '../actions/action-registry'
import { useAssistant } from '../assistant/assistant-react'
import { menuItem } from '../actions/action-registry'
import { chordOf } from '../actions/keys'
import { spreadsheetActions } from '../actions/spreadsheet-actions'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { toast } from '../toasts/toast-store'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Dialog } from '../ui/Dialog'
import type { MenuEntry } from '../ui/Menu'
import { downloadBlob, SAVE_FILE_NAME } from '../workbook/file-exports'
import { saveFile } from '../workbook/save-file'
import { OutputControls } from '../print/OutputControls'
import { requestOutput } from '../print/output-requests'
import { clearEverythingEffects } from '../session/clear-everything'
import { RenameWorkbookDialog } from '../workbooks/RenameWorkbookDialog'
import { CalculationOptionsDialog } from '../spreadsheet/CalculationOptionsDialog'
import { ExternalLinksDialog } from '../spreadsheet/ExternalLinksDialog'
import type { WorkbookStore } from '../workbook/workbook-store'
import { errorText } from '../pages/error-text'
import { SAVE_LABELS } from '../session/save-state'
import { HelpDialog } from './HelpDialog'
import { ImportDialog } from './ImportDialog'
import { MenuBar } from './MenuBar'
import type { NavigationItem } from './navigation-items'
import { isSpreadsheetPath } from './navigation-items'
import type { ShellActions } from './shell-actions'
import { ShellActionsContext } from './shell-actions'
import { Sidebar } from './Sidebar'
import { Toolbar } from './Toolbar'
import { TopBar } from './TopBar'
import { DEFAULT_WORKBOOK_ID, workbookTitle } from './user-display'
import { api } from '../app/services'
import type { ImportWorkbookResponse, PdfEntry } from '@finsheet/contracts'
import { addFiguresCommand, figuresWorkbook } from '../files/pdf-figures'

/** Every signed-in route: 'Loading...' while sign-in state loads, /login when signed out. */
export function GuardedShell() {
  const { state } = useAuth()
  if (state.status === 'loading') {
    return (
      <div className="loading-screen" role="status">
        Loading...
      </div>
    )
  }
  if (state.status === 'signed-out') return <Navigate to="/login" replace />
  return <AppShell user={state.user} />
}


function AppShell({ user }: { user: CurrentUser }) {
  const { service } = useAuth()
  const [session, controller] = useSession()
  const [ws, workspace] = useWorkspace()
  const navigate = useNavigate()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const [helpOpen, setHelpOpen] = useState(false)
  const [importOpen, setImportOpen] = useState(false)
  const [clearOpen, setClearOpen] = useState(false)
  const [profileOpen, setProfileOpen] = useState(false)
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null)
  // the settings as the dialog opened on them
  const [calculation, setCalculation] = useState<WorkbookStore['calculation'] | null>(null)
  const [links, setLinks] = useState<ReturnType<WorkbookStore['externalLinks']> | null>(null)
  const onHome = isSpreadsheetPath(pathname)
  const [assistantState, assistant] = useAssistant()
  const onHomeRef = useRef(onHome)
  onHomeRef.current = onHome
  // read when a key or button runs, so they see the panel and the screen as they are then
  const assistantControls: AssistantControls = useMemo(
    () => ({
      get open() {
        return assistant.state.open
      },
      get onSpreadsheet() {
        return onHomeRef.current
      },
      setOpen: (open: boolean) => assistant.setOpen(open),
    }),
    [assistant],
  )

  useEffect(() => {
    void controller.start(user)
  }, [controller, user])

  // the notes this user inserts carry their name, as Excel's do
  useEffect(() => {
    workspace.noteAuthor = user.displayName ?? user.email ?? undefined
  }, [workspace, user])

  // a workbook the controller opens gets its own address, so that a reload or a second tab opens it again
  useEffect(() => {
    controller.setNavigator((workbookId, options) => {
      void navigate({ to: '/workbooks/$workbookId', params: { workbookId }, search: options?.sheet ? { sheet: options.sheet } : {}, replace: options?.replace })
    })
    return () => controller.setNavigator(null)
  }, [controller, navigate])

  // spec: nothing typed is lost — save at once when the page is hidden or closed
  useEffect(() => {
    const flush = () => {
      if (document.visibilityState === 'hidden') void controller.flush(true)
    }
    const onPageHide = () => void controller.flush(true)
    document.addEventListener('visibilitychange', flush)
    window.addEventListener('pagehide', onPageHide)
    return () => {
      document.removeEventListener('visibilitychange', flush)
      window.removeEventListener('pagehide', onPageHide)
    }
  }, [controller])

  // the actions whose keys work anywhere (Alt+S, Alt+V, Alt+M, Alt+F, Alt+D go to their screens)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const chord = chordOf(e)
      // Alt changes the letter some layouts send (Option+S is ß on a Mac): the key's place names it
      if (chord.alt && e.code.startsWith('Key')) chord.key = e.code.slice(3)
      const go = (path: NavigationItem['path']) => void navigate({ to: path })
      const handled = spreadsheetActions.handleKey(chord, 'app', { workspace, grid: null, editor: null, go, assistant: assistantControls })
      if (handled.taken) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [navigate, workspace, assistantControls])

  const signOut = async () => {
    try {
      await controller.stop()
      await service.signOut()
      toast({ title: 'Signed out', description: 'You have been signed out successfully', variant: 'success' })
      await navigate({ to: '/login' })
    } catch (error) {
      console.error('Sign out failed', error)
      toast({ title: 'Error', description: 'Failed to sign out', variant: 'destructive' })
    }
  }

  const actions: ShellActions = useMemo(
    () => ({ openImport: () => setImportOpen(true), confirmClearAll: () => setClearOpen(true), openHelp: () => setHelpOpen(true) }),
    [],
  )

  const { store, sheet, selection } = ws
  const actionContext: ActionContext = { workspace, grid: null, editor: null, go: (path) => void navigate({ to: path }), key: null, assistant: assistantControls }
  /** a menu item of the registry; the keyboard goes back to the grid after it, unless it opens a dialog */
  const item = (id: string, back = true) => menuItem(spreadsheetActions.get(id), actionContext, back ? () => workspace.focusGrid() : undefined)
  // without a workbook the items are there, disabled, as the registry says; each menu makes its items when it opens
  const editEntries = (): MenuEntry[] => [item('undo'), item('redo'), 'separator', item('cut'), item('copy'), item('paste'), item('paste-special', false), item('clear-contents'), item('fill-down'), item('fill-right'), 'separator', item('find', false), item('replace', false), item('go-to', false)]
  const viewEntries = (): MenuEntry[] => [
    item('toggle-assistant', false),
    'separator',
    item('previous-sheet'),
    item('next-sheet'),
    'separator',
    item('freeze-panes'),
    item('freeze-top-row'),
    item('freeze-first-column'),
    item('unfreeze-panes'),
    'separator',
    item('zoom-in'),
    item('zoom-out'),
    item('zoom-reset'),
    'separator',
    item('toggle-gridlines'),
    'separator',
    { label: 'Version history', onSelect: () => void navigate({ to: '/version-control' }) },
    { label: 'Keyboard shortcuts', onSelect: () => void navigate({ to: '/shortcuts' }) },
  ]
  const insertEntries = (): MenuEntry[] => [item('insert-chart', false), 'separator', item('insert-note', false), item('delete-note'), 'separator', item('insert-link', false), item('remove-link')]
  const formatEntries = (): MenuEntry[] => [item('format-cells', false), item('conditional-formatting', false), 'separator', item('bold'), item('italic'), item('underline'), item('strike'), item('wrap'), 'separator', item('currency'), item('percent'), item('increase-decimals'), item('decrease-decimals'), item('clear-number-format'), 'separator', item('merge'), item('clear-formatting'), 'separator', item('hide-rows'), item('unhide-rows'), item('row-height-default'), item('hide-columns'), item('unhide-columns'), 'separator', item('hide-sheet'), item('unhide-sheet', false)]
  const dataEntries = (): MenuEntry[] => [
    item('sort-range', false),
    item('sort-ascending'),
    item('sort-descending'),
    item('toggle-filter'),
    item('clear-filter'),
    'separator',
    item('insert-rows-above'),
    item('insert-rows-below'),
    item('delete-rows'),
    'separator',
    item('insert-columns-left'),
    item('insert-columns-right'),
    item('delete-columns'),
    'separator',
    item('group'),
    item('ungroup'),
    item('collapse-group'),
    item('expand-group'),
    'separator',
    item('add-sheet'),
    { label: 'Import Document Data', onSelect: () => setImportOpen(true) },
    'separator',
    { label: 'Calculation options…', onSelect: () => setCalculation(store?.calculation ?? null), disabled: !store },
    { label: 'Edit Links…', onSelect: () => setLinks(store?.externalLinks() ?? null), disabled: !store },
    item('name-manager', false),
    item('data-validation', false),
    'separator',
    { heading: 'Formula Auditing' },
    item('trace-precedents'),
    item('trace-dependents'),
    item('remove-arrows'),
    'separator',
    { heading: 'What-If Analysis' },
    item('goal-seek', false),
  ]

  // before any workbook is open, the session's first workbook is the one the user is in
  const inFirstWorkbook = session.status === 'ready' && session.session?.activeWorkbook === DEFAULT_WORKBOOK_ID
  const title = workbookTitle(store ? { id: store.id, name: store.name, sheetNames: store.sheetNames } : inFirstWorkbook ? { id: DEFAULT_WORKBOOK_ID, sheetNames: [] } : null)

  const makeCopy = async () => {
    if (!store) return
    try {
      const copy = await controller.duplicateWorkbook(store.id)
      await controller.openWorkbook(copy.id, copy.name)
      toast({ title: 'Workbook copied', description: `You are in ${copy.name}.`, variant: 'success' })
    } catch (error) {
      console.error('Copy failed', error)
      toast({ title: 'Error', description: `The workbook could not be copied: ${errorText(error)}`, variant: 'destructive' })
    }
  }

  // A PDF's figures open as a sheet: a new one of the open workbook, else a workbook of their own.
  const showFigures = async (fileName: string, entries: PdfEntry[]) => {
    try {
      if (store) {
        const { sheet: added, command } = addFiguresCommand(fileName, entries, store.sheetNames)
        workspace.dispatch(command)
        workspace.switchSheet(added)
        await navigate({ to: '/workbooks/$workbookId', params: { workbookId: store.id }, search: { sheet: added } })
      } else {
        const created = await api.post<ImportWorkbookResponse>('/spreadsheet/workbooks/import', figuresWorkbook(fileName, entries))
        await controller.openWorkbook(created.workbookId, created.workbook.name)
      }
    } catch (error) {
      console.error('Figures sheet failed', error)
      toast({ title: 'Error', description: `The figures could not be put in a sheet: ${errorText(error)}`, variant: 'destructive' })
    }
  }

  // after a dialog has given focus back to where it was opened from, the keyboard goes to the grid
  const backToGrid = () => requestAnimationFrame(() => workspace.focusGrid())

  // Workbooks belong to their owner: the link opens this workbook wherever its owner signs in.
  const shareLink = async () => {
    if (!store) return toast({ title: 'Error', description: 'No workbook loaded', variant: 'destructive' })
    const link = `${window.location.origin}/workbooks/${encodeURIComponent(store.id)}`
    try {
      await navigator.clipboard.writeText(link)
      toast({ title: 'Link copied', description: `The link opens ${store.name ?? title} wherever you sign in; only you can open it.`, variant: 'success' })
    } catch {
      toast({ title: 'Share', description: `Copy this link to open ${store.name ?? title} wherever you sign in: ${link}` })
    }
  }

  return (
    <ShellActionsContext.Provider value={actions}>
      <div className="app-shell">
        <Sidebar />
        <div className="app-main">
          <TopBar
            user={user}
            workbookTitle={title}
            saveState={store ? SAVE_LABELS[session.saveState] : undefined}
            onSignOut={() => void signOut()}
            onProfile={() => setProfileOpen(true)}
          />
          <MenuBar
            file={{
              onNewSpreadsheet: () => void controller.createWorkbook(),
              onOpen: () => void navigate({ to: '/workbooks' }),
              onMakeCopy: () => void makeCopy(),
              onRename: () => {
                if (store) setRenaming({ id: store.id, name: store.name ?? title })
              },
              hasWorkbook: store !== null,
              onImport: () => setImportOpen(true),
              onSaveJson: () => {
                if (!store) return toast({ title: 'Error', description: 'No workbook loaded', variant: 'destructive' })
                downloadBlob(new Blob([JSON.stringify(saveFile(store, sheet, selection))], { type: 'application/json' }), SAVE_FILE_NAME)
              },
              onPageSetup: () => requestOutput('page-setup'),
              onPrint: () => requestOutput('print'),
              onExportPdf: () => requestOutput('export-pdf'),
              onDownloadXlsx: () => {
                if (!store) return
                void controller
                  .flush()
                  .then(() => api.download(`/spreadsheet/workbook/${encodeURIComponent(store.id)}/export`, { query: { format: 'xlsx' } }))
                  .then((file) => {
                    downloadBlob(file.blob, file.fileName ?? `${store.name ?? 'workbook'}.xlsx`)
                    if (file.notes) toast({ title: 'Exported', description: `In the file: ${file.notes}.` })
                  })
                  .catch((error: unknown) => {
                    console.error('Export failed', error)
                    toast({ title: 'Error', description: 'The workbook could not be exported. Please try again.', variant: 'destructive' })
                  })
              },
              onShare: () => void shareLink(),
              canDownloadXlsx: store !== null,
            }}
            edit={editEntries}
            insert={insertEntries}
            view={viewEntries}
            format={formatEntries}
            data={dataEntries}
            onHelp={() => setHelpOpen(true)}
          />
          {onHome && <Toolbar onImport={() => setImportOpen(true)} assistant={{ ...assistantControls, open: assistantState.open }} />}
          <main className="app-content" id="main-content">
            <Outlet />
          </main>
        </div>
      </div>
      <OutputControls />
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} defaultName={user.displayName ?? ''} defaultEmail={user.email ?? ''} />
      <ImportDialog
        open={importOpen}
        onClose={() => setImportOpen(false)}
        onImported={(workbookId, name, outcome) => {
          setImportOpen(false)
          if (workbookId) {
            assistant.afterUpload(workbookId, name)
            void controller.openWorkbook(workbookId, name)
          } else if (outcome.result.kind === 'pdf') {
            void showFigures(outcome.fileName, outcome.result.data ?? [])
            assistant.afterDocument(outcome.result.fileId, outcome.fileName, outcome.result.data?.length ?? 0)
          }
        }}
      />
      <ConfirmDialog
        open={clearOpen}
        title="Clear all data?"
        message={clearOpen ? clearEverythingEffects(session.session, session.workbooks) : []}
        confirmLabel="Clear All Data"
        destructive
        onCancel={() => setClearOpen(false)}
        onConfirm={() => {
          setClearOpen(false)
          void controller.clearEverything()
        }}
      />
      <RenameWorkbookDialog workbook={renaming} onRename={(id, name) => controller.renameWorkbook(id, name)} onClose={() => setRenaming(null)} />
      <ExternalLinksDialog
        links={links}
        onClose={() => {
          setLinks(null)
          backToGrid()
        }}
      />
      <CalculationOptionsDialog
        current={calculation}
        onApply={(settings) => {
          setCalculation(null)
          try {
            workspace.dispatch({ type: 'set-calculation', ...settings })
          } catch (error) {
            toast({ title: 'Error', description: errorText(error), variant: 'destructive' })
          }
          backToGrid()
        }}
        onClose={() => {
          setCalculation(null)
          backToGrid()
        }}
      />
      <Dialog open={profileOpen} title="Profile" onClose={() => setProfileOpen(false)} width={380}>
        <dl className="profile-list">
          <dt>Name</dt>
          <dd>{user.displayName ?? '—'}</dd>
          <dt>Email</dt>
          <dd>{user.email ?? '—'}</dd>
          <dt>Sign-in</dt>
          <dd>{service.usesFirebase ? 'Firebase Authentication' : 'Finsheet account'}</dd>
        </dl>
      </Dialog>
    </ShellActionsContext.Provider>
  )
}
