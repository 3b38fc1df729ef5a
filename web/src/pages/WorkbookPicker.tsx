import type { WorkbookMetadata } from '@finsheet/contracts'
import { SelectField } from './SelectField'

/** Which of the user's workbooks a screen works on. */
export function WorkbookPicker({ workbooks, value, onChange }: { workbooks: readonly WorkbookMetadata[]; value: string | null; onChange(id: string): void }) {
  return (
    <SelectField label="Workbook" value={value ?? ''} onChange={onChange}>
      {workbooks.map((workbook) => (
        <option key={workbook.id} value={workbook.id}>
          {workbook.name}
        </option>
      ))}
    </SelectField>
  )
}
