import type { VersionRecord } from '@finsheet/contracts'
import { api } from '../app/services'
import { LoadProblem } from '../pages/LoadProblem'
import { useRemote } from '../pages/use-remote'
import { Dialog } from '../ui/Dialog'
import { DiffTable } from './DiffTable'
import { compareVersions, loadPreviousVersion } from './versions-api'

interface VersionDiffDialogProps {
  /** the version whose changes are shown, and the one before it (none for a first version) */
  target: { version: VersionRecord; previous: VersionRecord | undefined } | null
  onClose(): void
}

function Changes({ version, previous }: { version: VersionRecord; previous: VersionRecord }) {
  const [comparison, reload] = useRemote((signal) => compareVersions(api, version.workbookId, previous.id, version.id, signal), [version.id, previous.id])
  if (comparison.status === 'error') return <LoadProblem message="The changes could not be loaded." onRetry={() => void reload()} />
  if (!comparison.data)
    return (
      <p className="muted" role="status">
        Comparing versions…
      </p>
    )
  return <DiffTable comparison={comparison.data} beforeLabel={`Version ${previous.number}`} afterLabel={`Version ${version.number}`} />
}

/** A version whose predecessor is not among those loaded: find it first. */
function ChangesOfOlder({ version }: { version: VersionRecord }) {
  const [previous, reload] = useRemote((signal) => loadPreviousVersion(api, version, signal), [version.id])
  if (previous.status === 'error') return <LoadProblem message="The changes could not be loaded." onRetry={() => void reload()} />
  if (previous.status === 'loading')
    return (
      <p className="muted" role="status">
        Comparing versions…
      </p>
    )
  return previous.data ? <Changes version={version} previous={previous.data} /> : <FirstVersion version={version} />
}

function FirstVersion({ version }: { version: VersionRecord }) {
  return (
    <p>
      This is the first version of {version.fileName}: {version.sheets.toLocaleString('en-US')} sheets, {version.cells.toLocaleString('en-US')} cells and{' '}
      {version.formulas.toLocaleString('en-US')} formulas, all new.
    </p>
  )
}

/** View Changes: the version against the one before it, cell by cell. */
export function VersionDiffDialog({ target, onClose }: VersionDiffDialogProps) {
  const version = target?.version
  return (
    <Dialog open={target !== null} title={version ? `Changes in version ${version.number} of ${version.fileName}` : ''} onClose={onClose} width={860}>
      {target &&
        (target.previous ? (
          <Changes version={target.version} previous={target.previous} />
        ) : target.version.number > 1 ? (
          <ChangesOfOlder version={target.version} />
        ) : (
          <FirstVersion version={target.version} />
        ))}
    </Dialog>
  )
}
