import type { VersionRecord } from '@finsheet/contracts'
import { Bot, CheckCircle2, FileSpreadsheet, History, Search, ShieldCheck, Users } from 'lucide-react'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { useAssistant } from '../assistant/assistant-react'
import { useSession } from '../app/app-context'
import { api } from '../app/services'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { toast } from '../toasts/toast-store'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Dialog } from '../ui/Dialog'
import { ByWorkbookPanel } from '../versions/ByWorkbookPanel'
import { ComparePanel } from '../versions/ComparePanel'
import { VersionCard } from '../versions/VersionCard'
import { VersionDiffDialog } from '../versions/VersionDiffDialog'
import type { VersionTypeFilter } from '../versions/version-view'
import { filterVersions, previousVersions, SEARCH_PLACEHOLDER, TEAM_MEMBERS, toggleSelection, TYPE_FILTERS, versionCounts, versionSummary } from '../versions/version-view'
import { loadVersionData, restoreVersion } from '../versions/versions-api'
import { errorText } from './error-text'
import { LoadProblem } from './LoadProblem'
import { SelectField } from './SelectField'
import { StatCard } from './StatCard'
import { Tabs } from './Tabs'
import { useRemote } from './use-remote'
import './screens.css'

type VersionTab = 'timeline' | 'workbooks' | 'compare'

const TABS: readonly { id: VersionTab; label: string }[] = [
  { id: 'timeline', label: 'Timeline View' },
  { id: 'workbooks', label: 'By Workbook' },
  { id: 'compare', label: 'Compare Versions' },
]

/** Timeline cards shown at first, and added by each Show More. */
const TIMELINE_PAGE = 50

/** Relative times are redrawn every minute. */
const CLOCK_TICK_MS = 60_000

/** Spec 1 §2 Version Control, on the spreadsheet service's versions: restore and compare for real. */
export function VersionControlPage() {
  const [, controller] = useSession()
  const [ws, workspace] = useWorkspace()
  const [data, reload] = useRemote((signal) => loadVersionData(api, signal), [])
  const [search, setSearch] = useState('')
  const [type, setType] = useState<VersionTypeFilter>('all')
  const [workbook, setWorkbook] = useState<string | null>(null)
  const [tab, setTab] = useState<VersionTab>('timeline')
  const [selected, setSelected] = useState<VersionRecord[]>([])
  const [diffTarget, setDiffTarget] = useState<{ version: VersionRecord; previous: VersionRecord | undefined } | null>(null)
  const [restoreTarget, setRestoreTarget] = useState<VersionRecord | null>(null)
  const [restoring, setRestoring] = useState<string | null>(null)
  const [learnMore, setLearnMore] = useState(false)
  const [now, setNow] = useState(() => Date.now())
  const [shownCount, setShownCount] = useState(TIMELINE_PAGE)
  const [, assistant] = useAssistant()
  const navigate = useNavigate()

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS)
    return () => clearInterval(timer)
  }, [])

  const versions = useMemo(() => data.data?.versions ?? [], [data.data])
  const previous = useMemo(() => previousVersions(versions), [versions])
  const byId = useMemo(() => new Map(versions.map((v) => [v.id, v])), [versions])
  const entries = useMemo(
    () => versions.map((version) => ({ version, summary: versionSummary(version, previous.get(version.id), version.restoredFrom ? byId.get(version.restoredFrom) : undefined) })),
    [versions, previous, byId],
  )
  const shown = filterVersions(entries, { search, type, workbook })
  const workbooks = versionCounts((data.data?.workbooks ?? []).map((w) => ({ id: w.id, name: w.name })), versions)

  // The assistant reads the workbook as it is now; the newest version's change list tells it where to look.
  const newestVersion = versions
    .filter((version) => version.workbookId === (workbook ?? ws.store?.id ?? versions[0]?.workbookId))
    .reduce<VersionRecord | undefined>((newest, version) => (newest && newest.number > version.number ? newest : version), undefined)
  const askAssistant = () => {
    if (!newestVersion) return
    const changes = newestVersion.aiSummary ?? newestVersion.changes
    assistant.setMode('chat')
    assistant.suggest(
      `Version ${newestVersion.number} of ${newestVersion.fileName} changed: ${changes} Explain what these changes do to the model's outputs, and point out anything in them that looks wrong.`,
    )
    assistant.setOpen(true)
    void navigate({ to: '/workbooks/$workbookId', params: { workbookId: newestVersion.workbookId } })
  }

  const restore = async (version: VersionRecord) => {
    setRestoring(version.id)
    try {
      // what is typed but not yet sent belongs to the state being replaced
      await controller.flush()
      const answer = await restoreVersion(api, version)
      toast({ title: 'Success', description: `Restored version ${version.number} of ${version.fileName} as version ${answer.version.number}`, variant: 'success' })
      if (ws.store?.id === version.workbookId) {
        // the open copy is behind the service now: open the workbook again
        workspace.close()
        void controller.show(version.workbookId)
      }
      await reload()
    } catch (error) {
      console.error('Restore failed', error)
      toast({ title: 'Error', description: `Failed to restore version: ${errorText(error)}`, variant: 'destructive' })
    } finally {
      setRestoring(null)
    }
  }

  return (
    <div className="page wide-page">
      <div className="page-header-row">
        <header className="page-header">
          <h1>Version Control</h1>
          <p>Track every change, find any version instantly</p>
        </header>
        <div className="page-actions">
          <button
            type="button"
            className="button"
            disabled={!newestVersion}
            title={newestVersion ? `Ask the assistant about the changes in version ${newestVersion.number} of ${newestVersion.fileName}` : 'No versions yet'}
            onClick={askAssistant}
          >
            <Bot size={15} aria-hidden="true" /> AI Version Assistant
          </button>
        </div>
      </div>

      <div className="stat-grid">
        <StatCard icon={<FileSpreadsheet size={20} />} label="Active Workbooks" value={data.data?.activeWorkbooks ?? '–'} />
        <StatCard icon={<History size={20} />} label="Total Versions" value={data.data?.totalVersions ?? '–'} />
        <StatCard icon={<Users size={20} />} label="Team Members" value={TEAM_MEMBERS} />
        <StatCard icon={<CheckCircle2 size={20} />} label="All Changes Saved" value="You're protected" tone="success" />
      </div>

      <div className="filter-bar" role="search">
        <label className="search-field">
          <Search size={16} aria-hidden="true" />
          <input type="search" placeholder={SEARCH_PLACEHOLDER} aria-label="Search versions" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <SelectField label="Type" value={type} onChange={(value) => setType(value as VersionTypeFilter)}>
          {TYPE_FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </SelectField>
      </div>
      {workbook !== null && (
        <div className="chip-row">
          <button type="button" className="chip selected" onClick={() => setWorkbook(null)} aria-label={`Workbook: ${workbook}. Show All`}>
            Workbook: {workbook} ×
          </button>
        </div>
      )}

      {data.status === 'error' && <LoadProblem message="The versions could not be loaded." onRetry={() => void reload()} />}

      <Tabs<VersionTab> label="Version views" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'timeline' &&
          (data.status === 'loading' && !data.data ? (
            <p className="muted" role="status">
              Loading versions…
            </p>
          ) : shown.length === 0 ? (
            <p className="empty-state">{versions.length === 0 ? 'No versions yet. A version is kept each time you create, import or change a workbook.' : 'No versions match these filters.'}</p>
          ) : (
            <div className="timeline">
              {shown.slice(0, shownCount).map(({ version, summary }) => (
                <VersionCard
                  key={version.id}
                  version={version}
                  summary={summary}
                  now={now}
                  selectedForCompare={selected.some((v) => v.id === version.id)}
                  restoring={restoring === version.id}
                  onViewChanges={() => setDiffTarget({ version, previous: previous.get(version.id) })}
                  onRestore={() => setRestoreTarget(version)}
                  onToggleCompare={() => setSelected((current) => toggleSelection(current, version))}
                />
              ))}
              {shown.length > shownCount && (
                <button type="button" className="button show-more" onClick={() => setShownCount((count) => count + TIMELINE_PAGE)}>
                  Show More ({(shown.length - shownCount).toLocaleString('en-US')} older)
                </button>
              )}
              {data.data && !data.data.complete && <p className="muted">The newest {data.data.versions.length.toLocaleString('en-US')} versions are searched here.</p>}
            </div>
          ))}
        {tab === 'workbooks' && (
          <ByWorkbookPanel
            workbooks={workbooks}
            selected={workbook}
            onToggle={(name) => {
              const next = workbook === name ? null : name
              setWorkbook(next)
              if (next !== null) setTab('timeline')
            }}
            onOpen={(id, name) => {
              void controller.openWorkbook(id, name)
            }}
          />
        )}
        {tab === 'compare' && <ComparePanel selected={selected} onChoose={() => setTab('timeline')} onClear={() => setSelected([])} />}
      </Tabs>

      <section className="card protect-banner">
        <ShieldCheck size={28} aria-hidden="true" />
        <div>
          <h2>Never lose your work again</h2>
          <p>Every workbook keeps its versions: restore any of them, or compare two cell by cell.</p>
        </div>
        <button type="button" className="button" onClick={() => setLearnMore(true)}>
          Learn More
        </button>
      </section>

      <VersionDiffDialog target={diffTarget} onClose={() => setDiffTarget(null)} />
      <ConfirmDialog
        open={restoreTarget !== null}
        title="Restore this version?"
        message={
          restoreTarget
            ? `${restoreTarget.fileName} goes back to version ${restoreTarget.number}. The restore becomes a new version, and Undo on the spreadsheet takes it back.`
            : ''
        }
        confirmLabel="Restore"
        onCancel={() => setRestoreTarget(null)}
        onConfirm={() => {
          const version = restoreTarget
          setRestoreTarget(null)
          if (version) void restore(version)
        }}
      />
      <Dialog open={learnMore} title="How versions work" onClose={() => setLearnMore(false)} width={520}>
        <ul className="learn-list">
          <li>A version is kept when you create or import a workbook, and after each pause in editing: a Minor version for a few cells, an Auto-save for more.</li>
          <li>Saving, applying an assistant changeset and restoring make Major versions.</li>
          <li>View Changes lists every cell that differs from the version before; Compare Versions sets any two versions of a workbook side by side.</li>
          <li>Restore brings a version back as a new version, so nothing in between is lost.</li>
        </ul>
      </Dialog>
    </div>
  )
}
