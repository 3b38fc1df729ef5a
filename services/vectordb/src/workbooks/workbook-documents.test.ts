import { describe, expect, it } from 'vitest'
import { DCF_MODEL } from '../relevance/model-workbooks.js'
import { workbookDocuments } from './workbook-documents.js'

describe('what of a workbook becomes searchable', () => {
  const documents = workbookDocuments(DCF_MODEL)
  const at = (sheet: string, address: string) => documents.find((d) => d.sheet === sheet && d.address === address)

  it('indexes row labels with their row, figures by label and year, and titles', () => {
    expect(at('DCF', 'A7')).toMatchObject({ kind: 'label', label: 'EBITDA', formula: '=B5+B6', header: null })
    expect(at('DCF', 'D3')).toMatchObject({ kind: 'cell', label: 'Revenue', header: '2027', formula: expect.stringMatching(/^=/) })
    expect(at('Assumptions', 'B6')).toMatchObject({ kind: 'cell', label: 'WACC', value: 0.095 })
    expect(at('Assumptions', 'A1')).toMatchObject({ kind: 'text', label: 'Acme Corp - key assumptions' })
    // the year header row is not a row of figures
    expect(at('DCF', 'B2')).toBeUndefined()
    expect(new Set(documents.map((d) => d.id)).size).toBe(documents.length)
  })

  it('keeps every label and cuts figures past the limit of points per workbook', () => {
    const labels = documents.filter((d) => d.kind !== 'cell').length
    const capped = workbookDocuments(DCF_MODEL, labels + 3)
    expect(capped).toHaveLength(labels + 3)
    expect(capped.filter((d) => d.kind !== 'cell')).toHaveLength(labels)
  })
})
