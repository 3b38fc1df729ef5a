import type { WorkbookMetadata } from '@finsheet/contracts'

/** Which of the user's workbooks a screen works on. */
export function WorkbookPicker({ workbooks, value, onChange }: { workbooks: readonly WorkbookMetadata[]; value: string | null; onChange(id: string): void }) {
  return (
    <label className="select-field">
      <span>Workbook</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        {workbooks.map((workbook) => (
          <option key={workbook.id} value={workbook.id}>
            {workbook.name}
          </option>
        ))}
      </select>
    </label>
  )
}
