import { describe, expect, it } from 'vitest'
import { formatFileSize, isAcceptedFile } from './file-types'

describe('import file types', () => {
  it('accepts the four extensions in any case, or a matching MIME type', () => {
    expect(isAcceptedFile('Model.XLSX', '')).toBe(true)
    expect(isAcceptedFile('old.xls', '')).toBe(true)
    expect(isAcceptedFile('data.csv', '')).toBe(true)
    expect(isAcceptedFile('10-K.pdf', '')).toBe(true)
    expect(isAcceptedFile('export', 'text/csv')).toBe(true)
  })

  it('refuses anything else', () => {
    expect(isAcceptedFile('notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(false)
    expect(isAcceptedFile('xlsx.txt', 'text/plain')).toBe(false)
  })

  it('shows sizes in B, KB or MB', () => {
    expect(formatFileSize(512)).toBe('512 B')
    expect(formatFileSize(259_840)).toBe('253.8 KB')
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.0 MB')
  })
})
