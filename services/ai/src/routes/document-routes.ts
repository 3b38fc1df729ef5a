/**
 * PDFs in the AI area: processDocument extracts a document's figures as {label, value, notes} entries
 * (the same extraction the files service runs on uploads), analyze-document adds the statement's key
 * figures and the ratios they give.
 */
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { DocumentAnalysisResponse, ErrorBody, PdfExtractionResponse } from '@finsheet/contracts'
import { AppError, errorResponses, type ServiceApp } from '@finsheet/platform'
import { extractPdfEntries, ImportFileError } from '@finsheet/workbook'
import { analyseEntries } from '../documents/document-analysis.js'

export interface DocumentRoutesOptions {
  /** Largest document in bytes; larger answers 413. */
  limitBytes: number
}

const documentErrors = {
  noDocument: () => new AppError('NO_FILE', 400, 'Please select a file to upload'),
  notPdf: () => new AppError('INVALID_FILE_TYPE', 400, 'Please upload a PDF document (.pdf)'),
  tooLarge: (limit: number) => new AppError('FILE_TOO_LARGE', 413, `The document is larger than the ${Math.round(limit / (1024 * 1024))} MB limit`),
  notMultipart: () => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the document as multipart/form-data'),
  unreadable: (error: ImportFileError) => new AppError(error.code === 'NO_DATA' ? 'NO_DATA_EXTRACTED' : error.code, 422, error.message),
}

export async function documentRoutes(app: ServiceApp, options: DocumentRoutesOptions) {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: options.limitBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024 } })
  const tags = ['documents']

  const extract = async (request: FastifyRequest) => {
    const document = await receiveDocument(request, options.limitBytes)
    try {
      return { ...(await extractPdfEntries(document.bytes)), fileName: document.fileName }
    } catch (error) {
      if (error instanceof ImportFileError) throw documentErrors.unreadable(error)
      throw error
    }
  }

  app.post(
    '/processDocument',
    {
      schema: {
        tags,
        summary: 'Extract a PDF’s figures (multipart field "document") as {label, value, notes} entries',
        consumes: ['multipart/form-data'],
        response: { 200: PdfExtractionResponse, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const { data, pages, fileName } = await extract(request)
      return { success: true as const, data, pages, fileName }
    },
  )

  app.post(
    '/analyze-document',
    {
      schema: {
        tags,
        summary: 'Extract a PDF’s figures and analyse them: key statement lines and the ratios they give',
        consumes: ['multipart/form-data'],
        response: { 200: DocumentAnalysisResponse, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const { data, pages, fileName } = await extract(request)
      return { success: true as const, data, pages, fileName, analysis: analyseEntries(data, pages) }
    },
  )
}

async function receiveDocument(request: FastifyRequest, limitBytes: number): Promise<{ bytes: Buffer; fileName: string }> {
  if (!request.isMultipart()) throw documentErrors.notMultipart()
  let found: { bytes: Buffer; fileName: string } | null = null
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue
    if (found || (part.fieldname !== 'document' && part.fieldname !== 'file')) {
      part.file.resume()
      continue
    }
    const fileName = (part.filename ?? '').split(/[/\\]/).pop() ?? ''
    if (!/\.pdf$/i.test(fileName) && part.mimetype !== 'application/pdf') {
      part.file.resume()
      throw documentErrors.notPdf()
    }
    // pdf.js reads a document with random access, so it is held in memory, bounded by the limit.
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of part.file) {
      size += (chunk as Buffer).length
      if (size > limitBytes) {
        part.file.resume()
        throw documentErrors.tooLarge(limitBytes)
      }
      chunks.push(chunk as Buffer)
    }
    found = { bytes: Buffer.concat(chunks), fileName }
  }
  if (!found) throw documentErrors.noDocument()
  return found
}
