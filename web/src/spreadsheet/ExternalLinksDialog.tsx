import type { ExternalLinkInfo } from '@finsheet/formula'
import { Dialog } from '../ui/Dialog'
import { plural } from '../ui/plural'

interface ExternalLinksDialogProps {
  /** the workbook's links to other workbooks; the dialog is closed without them */
  links: readonly ExternalLinkInfo[] | null
  onClose(): void
}

/**
 * Data → Edit Links: the other workbooks this one's formulas read, as Excel lists them. Their values
 * are the ones the file kept when it was saved; the linked files are never opened from here.
 */
export function ExternalLinksDialog({ links, onClose }: ExternalLinksDialogProps) {
  return (
    <Dialog open={links !== null} title="Links to other workbooks" onClose={onClose} width={520}>
      {links && links.length === 0 && <p className="empty-state">This workbook has no links to other workbooks.</p>}
      {links && links.length > 0 && (
        <>
          <p className="dialog-lead">Formulas read these workbooks through the values the file kept of them when it was saved; they are not updated from the files.</p>
          <ul className="plain-list external-links" aria-label="Linked workbooks">
            {links.map((link) => (
              <li key={link.index}>
                <span>
                  <strong>
                    [{link.index}] {link.fileName}
                  </strong>
                  <span className="muted"> · {link.sheets.length > 0 ? link.sheets.join(', ') : 'no sheets kept'}</span>
                  <br />
                  <span className="muted">
                    {plural(link.formulaCells, 'formula')} · {link.target}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  )
}
