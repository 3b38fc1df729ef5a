/**
 * The files.process job: reads an uploaded file from the blob store and turns it into a workbook
 * (xlsx, csv) in the spreadsheet service or into extracted figures (pdf), reporting real progress.
 *
 * Idempotent by job id: the import is sent with an id made of the file's and the job's, and the
 * spreadsheet service stores one workbook per id, so a retried run (even one whose first run stored
 * the workbook and died before it could say so) gets the first run's workbook and report back
 * instead of importing twice; the file record is only ever updated in place, so a file deleted
 * meanwhile stays deleted.
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { toSheetName } from '@finsheet/formula'
import { UnrecoverableJobError, type ActiveJob, type BlobStore, type JobProcessor, type UserTokenSource } from '@finsheet/platform'
import type { FileJobResult, ImportReport, ProcessedData } from '@finsheet/contracts'
import {
  contentKindOf,
  extractPdfEntries,
  ImportFileError,
  isEncryptedOfficeFile,
  openXlsxImport,
  readCsvFile,
  type ImportedWorkbook,
  type ImportLimits,
} from '@finsheet/workbook'
import type { FileRepository, StoredFile } from '../repositories/file-repository.js'
import { WorkbookRejectedError, type ImportedWorkbookAnswer, type SpreadsheetClient } from '../spreadsheet-client.js'
import { prepareImport, type PreparedImport } from './workbook-import-body.js'

export interface FileJobData {
  fileId: string
  /** The user the job acts for; the worker gets a short-lived token for them when it runs. */
  userId: string
  /** process: right after upload; import: another workbook from an uploaded file. */
  action: 'process' | 'import'
  /** The workbook's name; default the file's name without its extension. */
  workbookName?: string
}

export interface FileProcessorDependencies {
  files: FileRepository
  blobs: BlobStore
  spreadsheet: SpreadsheetClient
  /** Tokens for the job's user, to store the workbook as theirs. */
  userTokens: UserTokenSource
  limits: ImportLimits
  /** Where the file is kept while it is processed. */
  workDir: string
  /** Runs a job gets in all; the last failure marks the file failed. */
  attempts: number
}

const PASSWORD_PROTECTED_WORKBOOK = 'This workbook is password-protected. Remove the password in Excel, save it, and upload it again.'
const LEGACY_XLS =
  'Excel 97–2003 workbooks (.xls) cannot be imported. Open the file in Excel or LibreOffice, save it as an Excel workbook (.xlsx), and upload that.'

export function createFileProcessor(deps: FileProcessorDependencies): JobProcessor<FileJobData, FileJobResult> {
  return async (job) => {
    const { fileId, userId, action } = job.data
    const file = await deps.files.get(userId, fileId)
    if (!file) throw new UnrecoverableJobError('File not found')
    if (action === 'process') await deps.files.setProcessing(fileId, job.id)
    const progress = progressReporter(job)
    try {
      const result = await processFile(job, file, deps, progress)
      await progress(100)
      return result
    } catch (error) {
      const final = toJobError(error)
      if (action === 'process' && (final instanceof UnrecoverableJobError || job.attempt >= deps.attempts)) {
        await deps.files.setFailed(fileId, final.message)
      }
      throw final
    }
  }
}

async function processFile(
  job: ActiveJob<FileJobData>,
  file: StoredFile,
  deps: FileProcessorDependencies,
  progress: (percent: number) => Promise<void>,
): Promise<FileJobResult> {
  await mkdir(deps.workDir, { recursive: true })
  const path = join(deps.workDir, `${job.id}-${randomUUID()}`)
  try {
    await pipeline(await deps.blobs.get(file.storagePath), createWriteStream(path))
    await progress(5)
    const content = contentKindOf(await readHead(path))
    if (file.kind === 'pdf') {
      // pdf.js needs the whole document; the upload limit bounds it.
      const extraction = await extractPdfEntries(await readFile(path))
      const data: ProcessedData = {
        workbookId: null,
        modelId: null,
        sheets: [],
        cellsProcessed: 0,
        formulasProcessed: 0,
        hasData: true,
        data: extraction.data,
      }
      await deps.files.setProcessed(file.id, data)
      return { fileId: file.id, kind: 'pdf', workbookId: null, cellCount: 0, formulaCount: 0, data: extraction.data }
    }
    if (content === 'ole2') {
      const encrypted = isEncryptedOfficeFile(await readFile(path))
      if (encrypted) throw new ImportFileError('PASSWORD_PROTECTED', PASSWORD_PROTECTED_WORKBOOK)
      if (file.kind === 'xls') throw new ImportFileError('UNSUPPORTED_FORMAT', LEGACY_XLS)
      throw new ImportFileError('TYPE_MISMATCH', `The file is an Excel 97–2003 workbook with an .xlsx name. ${LEGACY_XLS}`)
    }
    if (file.kind === 'xls') throw new ImportFileError('UNSUPPORTED_FORMAT', LEGACY_XLS)

    const name = job.data.workbookName ?? workbookNameOf(file.name)
    const importId = importIdOf(file, job)
    const startedAt = performance.now()
    let readAt: number
    let prepared: PreparedImport
    let answer: ImportedWorkbookAnswer
    let workbook: ImportedWorkbook
    if (file.kind === 'csv') {
      workbook = await readCsvFile(path, { sheetName: sheetNameOf(name), limits: deps.limits, onProgress: (fraction) => void progress(5 + fraction * 50) })
      await rm(path, { force: true })
      readAt = performance.now()
      await progress(55)
      prepared = prepareImport(workbook, name)
      // Sending is the part of storing whose progress is known: 55–95 as the cells go out. The service
      // recalculates and checks the cached values as it stores.
      answer = await deps.spreadsheet.importWorkbook(await deps.userTokens.tokenFor(file.userId), prepared.lines({ importId, onProgress: (fraction) => void progress(55 + fraction * 40) }))
    } else {
      // An xlsx file's cells go to the spreadsheet service as they are read: the file is parsed here
      // while the service loads what came before, and no one holds the parsed workbook. Progress
      // follows the file's cells: 5–95.
      const source = await openXlsxImport(path, { limits: deps.limits, onProgress: (fraction) => void progress(5 + fraction * 90) })
      try {
        workbook = source.workbook
        readAt = performance.now()
        prepared = prepareImport(workbook, name)
        const token = await deps.userTokens.tokenFor(file.userId)
        const lines = failureKept(prepared.streamLines((index) => source.cells(index), { importId }))
        try {
          answer = await deps.spreadsheet.importWorkbook(token, lines)
        } catch (error) {
          // A damaged part or a file past the limits cuts the stream: its own error is the job's.
          throw lines.failure() ?? error
        }
        const failure = lines.failure()
        if (failure) throw failure
      } finally {
        source.close()
      }
    }
    const sheets = workbook.sheets.map((sheet) => sheet.name)
    const counts = { sheets: workbook.sheets.length, cells: workbook.cellCount, formulas: workbook.formulaCount }
    const { workbookId, recalculation } = answer
    const cellCount = answer.cellCount || workbook.cellCount
    const formulaCount = answer.formulaCount || workbook.formulaCount
    const report: ImportReport = {
      ...counts,
      matched: recalculation.matched,
      mismatchCount: recalculation.mismatchCount,
      mismatches: recalculation.mismatches,
      notKept: prepared.notKept,
    }
    // An xlsx file's cells are read while they are stored: its readMs is the layout read first, its
    // storeMs the cells read, sent, calculated and stored.
    const timings = { readMs: Math.round(readAt - startedAt), storeMs: Math.round(performance.now() - readAt) }
    await progress(95)
    const data: ProcessedData = {
      workbookId,
      modelId: null,
      sheets,
      cellsProcessed: cellCount,
      formulasProcessed: formulaCount,
      hasData: cellCount > 0,
      report,
    }
    await deps.files.setProcessed(file.id, data)
    return { fileId: file.id, kind: file.kind, workbookId, cellCount, formulaCount, report, timings }
  } finally {
    await rm(path, { force: true })
  }
}

/** An iterable that remembers the error it ended with, which whoever reads it may report otherwise. */
function failureKept<T>(source: AsyncIterable<T>): AsyncIterable<T> & { failure(): Error | undefined } {
  let failure: Error | undefined
  return {
    failure: () => failure,
    async *[Symbol.asyncIterator]() {
      try {
        yield* source
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error))
        throw error
      }
    },
  }
}

/** One import per file and job: a retried run of the job repeats its id, another job gets its own. */
export function importIdOf(file: StoredFile, job: ActiveJob<FileJobData>): string {
  return `file:${file.id}:job:${job.id}`
}

/** Writes progress when it moves by a whole percent, never backwards. */
function progressReporter(job: ActiveJob<FileJobData>): (percent: number) => Promise<void> {
  let last = -1
  let pending: Promise<void> = Promise.resolve()
  return (percent) => {
    const rounded = Math.floor(Math.min(100, Math.max(0, percent)))
    if (rounded <= last) return pending
    last = rounded
    pending = pending.then(() => job.updateProgress(rounded)).catch(() => undefined)
    return pending
  }
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** Errors a person can act on fail the job at once; anything else may pass on a retry. */
function toJobError(error: unknown): Error {
  if (error instanceof ImportFileError || error instanceof WorkbookRejectedError) return new UnrecoverableJobError(error.message)
  if (error instanceof UnrecoverableJobError) return error
  return error instanceof Error ? error : new Error(String(error))
}

export function workbookNameOf(fileName: string): string {
  return fileName.replace(/\.(xlsx|xls|csv|pdf)$/i, '').trim().slice(0, 200) || 'Imported workbook'
}

/** The sheet a CSV file becomes: its name made a valid sheet name. */
export function sheetNameOf(name: string): string {
  return toSheetName(name)
}
