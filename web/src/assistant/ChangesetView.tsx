import type { ChangesetCellChange, ChartData } from '@finsheet/contracts'
import { plural } from '../ui/plural'
import { ChartPreview } from './ChartPreview'
import type { ChangesetBlock } from './conversation'

interface ChangesetViewProps {
  block: ChangesetBlock
  /** the open workbook is the changeset's */
  onItsWorkbook: boolean
  busy: boolean
  onApply(approve: boolean): void
  onDiscard(): void
  onUndo(): void
  onRerun(): void
  onSelectCell(sheet: string, address: string): void
  /** what a chart of the range draws, read from the open workbook */
  chartData(sheet: string, range: string): ChartData | null
}

/** Cells the diff lists before it says how many more there are. */
const SHOWN_CHANGES = 50
const SHOWN_DOWNSTREAM = 8

/** A cell's content as the diff shows it: the formula and what it shows, or the value; 'empty' for nothing. */
function CellContent({ state }: { state: ChangesetCellChange['before'] }) {
  if (state.input === '' && state.display === '') return <span className="diff-empty">empty</span>
  if (state.input.startsWith('=')) {
    return (
      <>
        <code className="diff-formula">{state.input}</code>
        <span className="diff-shown">{state.display}</span>
      </>
    )
  }
  return <span>{state.display || state.input}</span>
}

const TITLES: Record<ChangesetBlock['state'], string> = {
  draft: 'Proposed changes',
  applying: 'Applying changes…',
  applied: 'Changes applied',
  discarding: 'Discarding…',
  discarded: 'Changes discarded',
  undoing: 'Undoing…',
  undone: 'Changes undone',
}

/**
 * An agent's changeset as a diff: the plan (what it does to the workbook), each cell with its sheet,
 * address, before → after (formulas shown), the downstream effect on other cells, and Apply / Discard
 * before it lands, or Undo after.
 */
export function ChangesetView({ block, onItsWorkbook, busy, onApply, onDiscard, onUndo, onRerun, onSelectCell, chartData }: ChangesetViewProps) {
  const { changeset, state } = block
  const needsApproval = changeset.needsApproval || (block.approval?.length ?? 0) > 0
  const approvalReasons = block.approval ?? changeset.approvalReasons
  const hidden = changeset.changeCount - Math.min(changeset.changes.length, SHOWN_CHANGES)
  const title = state === 'applied' && block.appliedAtOnce ? 'Changes applied (without asking)' : TITLES[state]

  return (
    <section className={`changeset changeset-${state}`} aria-label={TITLES[state]}>
      <header className="changeset-header">
        <h3>{title}</h3>
        <p className="changeset-plan">{changeset.description}</p>
      </header>
      {(changeset.structural.length > 0 || changeset.formats.length > 0 || changeset.charts.length > 0) && (
        <ul className="changeset-plan-list" aria-label="Plan">
          {changeset.structural.map((step, i) => (
            <li key={`s${i}`}>{step.description}</li>
          ))}
          {changeset.formats.map((format, i) => (
            <li key={`f${i}`}>
              Format {format.sheet}!{format.range}
              {format.numberFormat ? ` as ${format.numberFormat}` : ''}
            </li>
          ))}
          {changeset.charts.map((chart, i) => (
            <li key={`c${i}`}>
              {chart.type} chart “{chart.title}” of {chart.sheet}!{chart.range}
            </li>
          ))}
        </ul>
      )}
      {changeset.changes.length > 0 && (
        <table className="changeset-cells" aria-label="Changed cells">
          <thead>
            <tr>
              <th scope="col">Cell</th>
              <th scope="col">Before</th>
              <th scope="col" aria-label="becomes" />
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changeset.changes.slice(0, SHOWN_CHANGES).map((change) => (
              <tr key={`${change.sheet}!${change.address}`}>
                <th scope="row">
                  <button type="button" className="link-button" disabled={!onItsWorkbook} onClick={() => onSelectCell(change.sheet, change.address)} title={change.label}>
                    {change.sheet}!{change.address}
                  </button>
                  {change.label && <span className="changeset-label">{change.label}</span>}
                </th>
                <td>
                  <CellContent state={change.before} />
                </td>
                <td aria-hidden="true">→</td>
                <td>
                  <CellContent state={change.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hidden > 0 && <p className="changeset-more">and {plural(hidden, 'more cell')}</p>}
      {changeset.downstream.length > 0 && (
        <div className="changeset-downstream">
          <h4>Downstream effect</h4>
          <ul aria-label="Downstream effect">
            {changeset.downstream.slice(0, SHOWN_DOWNSTREAM).map((effect) => (
              <li key={`${effect.sheet}!${effect.address}`}>
                <button type="button" className="link-button" disabled={!onItsWorkbook} onClick={() => onSelectCell(effect.sheet, effect.address)}>
                  {effect.text}
                </button>
              </li>
            ))}
          </ul>
          {changeset.downstreamCount > SHOWN_DOWNSTREAM && <p className="changeset-more">and {plural(changeset.downstreamCount - SHOWN_DOWNSTREAM, 'more cell')} whose value changes</p>}
        </div>
      )}
      {changeset.errors.length > 0 && (
        <div className="changeset-errors" role="note">
          <h4>New errors</h4>
          <ul aria-label="New errors">
            {changeset.errors.map((error) => (
              <li key={`${error.sheet}!${error.address}`}>
                <button type="button" className="link-button" disabled={!onItsWorkbook} onClick={() => onSelectCell(error.sheet, error.address)}>
                  {error.sheet}!{error.address} = {error.value}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {changeset.charts.map((chart, i) => (
        <ChartPreview key={`${chart.sheet}!${chart.range}-${i}`} chart={chart} data={onItsWorkbook ? chartData(chart.sheet, chart.range) : null} placed={state === 'applied'} />
      ))}
      {needsApproval && state === 'draft' && approvalReasons.length > 0 && (
        <div className="changeset-approval" role="note">
          <h4>Needs your approval</h4>
          <ul>
            {approvalReasons.map((reason) => (
              <li key={`${reason.sheet}!${reason.address}`}>
                {reason.sheet}!{reason.address}: <code>{reason.formula}</code> — {reason.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {block.conflict && (
        <div className="changeset-conflict" role="alert">
          <p>
            {block.conflict.cells.length > 0
              ? `These cells changed since the assistant worked this out: ${block.conflict.cells.map((cell) => `${cell.sheet}!${cell.address}`).join(', ')}.`
              : block.conflict.message}
          </p>
          <button type="button" className="button" disabled={busy} onClick={onRerun}>
            Run again
          </button>
        </div>
      )}
      {block.notice && (
        <p className="changeset-notice" role="status">
          {block.notice}
        </p>
      )}
      <div className="changeset-actions">
        {(state === 'draft' || state === 'applying' || state === 'discarding') && (
          <>
            <button type="button" className="button primary" disabled={state !== 'draft' || !onItsWorkbook} onClick={() => onApply(needsApproval)}>
              {needsApproval ? 'Approve and apply' : 'Apply'}
            </button>
            <button type="button" className="button" disabled={state !== 'draft'} onClick={onDiscard}>
              Discard
            </button>
          </>
        )}
        {(state === 'applied' || state === 'undoing') && (
          <button type="button" className="button" disabled={state !== 'applied' || !onItsWorkbook} onClick={onUndo}>
            Undo
          </button>
        )}
        {!onItsWorkbook && (state === 'draft' || state === 'applied') && <span className="changeset-elsewhere">Open its workbook to change it.</span>}
      </div>
    </section>
  )
}
