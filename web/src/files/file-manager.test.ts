import type { FileRecord } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { ApiError, RetriesExhaustedError } from '../api/api-client'
import {
  beginDelete,
  canImport,
  deleteFailed,
  deleteFailureNotice,
  deleteSucceeded,
  fileListState,
  filesInTab,
  mayRefresh,
  tabCounts,
  withLoadedFiles,
} from './file-manager'

function file(id: string, kind: FileRecord['kind'], status: FileRecord['status'] = 'processed'): FileRecord {
  return { id, name: `${id}.${kind}`, kind, status, isExcel: kind !== 'pdf', isPdf: kind === 'pdf' } as FileRecord
}

const files = [file('a', 'xlsx'), file('b', 'pdf'), file('c', 'csv'), file('d', 'xls', 'failed')]
const ids = (list: readonly FileRecord[]) => list.map((f) => f.id)

describe('file manager tabs', () => {
  it('splits the files into Excel workbooks, PDF documents and other files', () => {
    expect(ids(filesInTab(files, 'all'))).toEqual(['a', 'b', 'c', 'd'])
    expect(ids(filesInTab(files, 'excel'))).toEqual(['a', 'c', 'd'])
    expect(ids(filesInTab(files, 'pdf'))).toEqual(['b'])
    const other = { ...file('e', 'csv'), isExcel: false, isPdf: false }
    expect(ids(filesInTab([...files, other], 'other'))).toEqual(['e'])
    expect(tabCounts(files)).toEqual({ all: 4, excel: 3, pdf: 1, other: 0 })
  })

  it('imports only spreadsheets the service reads', () => {
    expect(canImport(file('x', 'xlsx'))).toBe(true)
    expect(canImport(file('x', 'csv', 'uploaded'))).toBe(true)
    expect(canImport(file('x', 'pdf'))).toBe(false)
    expect(canImport(file('x', 'xls'))).toBe(false)
    expect(canImport(file('x', 'xlsx', 'failed'))).toBe(false)
  })

  it('throttles automatic refreshes to one per 3 s, not the ones the user asks for', () => {
    expect(mayRefresh(null, 0, false)).toBe(true)
    expect(mayRefresh(10_000, 12_999, false)).toBe(false)
    expect(mayRefresh(10_000, 13_000, false)).toBe(true)
    expect(mayRefresh(10_000, 10_001, true)).toBe(true)
  })
})

describe('deleting files', () => {
  it('removes the file at once and ignores a second request while the first is pending', () => {
    const first = beginDelete(fileListState(files), 'b')
    expect(first.started).toBe(true)
    expect(ids(first.state.files)).toEqual(['a', 'c', 'd'])
    const second = beginDelete(first.state, 'b')
    expect(second.started).toBe(false)
    expect(second.state).toBe(first.state)
    expect(beginDelete(first.state, 'nope').started).toBe(false)
    const done = deleteSucceeded(first.state, 'b')
    expect(done.deleting).toEqual({})
    expect(ids(done.files)).toEqual(['a', 'c', 'd'])
  })

  it('puts the file back where it was when the deletion fails', () => {
    const { state } = beginDelete(fileListState(files), 'c')
    const notice = deleteFailureNotice(new ApiError(500, 'Internal Server Error', { error: { code: 'INTERNAL', message: 'Disk on fire' } }))
    expect(notice).toEqual({ title: 'Error', description: 'Failed to delete file: Disk on fire', restore: true, inline: 'Deletion Failed: Disk on fire' })
    const restored = deleteFailed(state, 'c', notice)
    expect(ids(restored.files)).toEqual(['a', 'b', 'c', 'd'])
    expect(restored.failures).toEqual({ c: 'Deletion Failed: Disk on fire' })
    expect(restored.deleting).toEqual({})
  })

  it('keeps the file off the list when the server says it is already gone', () => {
    const { state } = beginDelete(fileListState(files), 'a')
    const notice = deleteFailureNotice(new ApiError(404, 'Not Found', { error: { code: 'FILE_NOT_FOUND', message: 'File not found' } }))
    expect(notice.title).toBe('File Already Deleted')
    expect(notice.restore).toBe(false)
    expect(ids(deleteFailed(state, 'a', notice).files)).toEqual(['b', 'c', 'd'])
  })

  it('names a concurrent deletion by status or by code', () => {
    expect(deleteFailureNotice(new ApiError(409, 'Conflict', { error: { code: 'CONCURRENT_DELETION', message: 'The file is already being deleted' } }))).toMatchObject({
      title: 'File Already Being Deleted',
      description: 'The file is already being deleted',
      restore: true,
    })
    expect(deleteFailureNotice(new ApiError(400, 'Bad Request', { error: { code: 'CONCURRENT_DELETION', message: 'busy' } })).title).toBe('File Already Being Deleted')
    const exhausted = new RetriesExhaustedError('Request failed after retries', new ApiError(503, 'Service Unavailable', null))
    expect(deleteFailureNotice(exhausted).description).toBe('Failed to delete file: Service Unavailable')
  })

  it('keeps files being deleted off a list loaded meanwhile', () => {
    const { state } = beginDelete(fileListState(files), 'a')
    expect(ids(withLoadedFiles(state, files).files)).toEqual(['b', 'c', 'd'])
  })
})

describe('vector search models', () => {
  it("lists the user's indexed workbooks once each, by name", async () => {
    const { indexedModels } = await import('./files-api')
    expect(indexedModels(undefined)).toEqual([])
    const indexedAt = '2026-01-01T00:00:00.000Z'
    expect(
      indexedModels({
        workbooks: [
          { workbookId: 'w1', name: 'Data Center', points: 120, revision: 3, indexedAt },
          { workbookId: 'w1', name: 'Data Center', points: 120, revision: 3, indexedAt },
          { workbookId: 'w2', name: '', points: 4, revision: 1, indexedAt },
        ],
      }),
    ).toEqual([
      { workbookId: 'w1', name: 'Data Center', points: 120, indexedAt },
      { workbookId: 'w2', name: 'w2', points: 4, indexedAt },
    ])
  })
})
