import type { CellNote } from '@finsheet/contracts'

interface NotePopupProps {
  note: CellNote
  /** the cell's rectangle relative to the grid area */
  cell: { x: number; y: number; width: number; height: number }
}

/** A cell's note, shown beside the cell while the pointer is over it, as Excel shows notes. */
export function NotePopup({ note, cell }: NotePopupProps) {
  return (
    <div role="tooltip" className="cell-note" data-testid="cell-note" style={{ left: cell.x + cell.width + 6, top: Math.max(0, cell.y) }}>
      {note.author && <strong className="cell-note-author">{note.author}:</strong>}
      <p className="cell-note-text">{note.text}</p>
    </div>
  )
}
