/**
 * PDFs in the AI area: processDocument extracts a document's figures as {label, value, notes} entries
 * (the same extraction the files service runs on uploads), analyze-document adds the statement's key
 * figures and the ratios they give.
 */
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { DocumentAnalysisResponse, ErrorBody, PdfExtractionResponse, type PdfEntry } from '@finsheet/contracts'
import { AppError, errorResponses, type ServiceApp } from '@finsheet/platform'
import { extractPdfEntries, ImportFileError } from '@finsheet/workbook'

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

/** Statement lines recognised by their labels, first match wins. */
const KEY_LINES: Array<[key: string, pattern: RegExp]> = [
  ['grossProfit', /^gross (profit|margin)$/i],
  ['costOfRevenue', /^(total )?(cost of (revenue|sales|goods sold)|cogs)$/i],
  ['revenue', /^(total |net )?(revenue|revenues|sales|turnover)$/i],
  ['ebitda', /^ebitda$/i],
  ['operatingIncome', /^(operating (income|profit)|ebit|income from operations)$/i],
  ['netIncome', /^net (income|profit|earnings)( attributable.*)?$/i],
  ['totalAssets', /^total assets$/i],
  ['totalLiabilities', /^total liabilities$/i],
  ['equity', /^(total )?(shareholders'?|stockholders'?)? ?equity$/i],
  ['cash', /^cash( and (cash )?equivalents)?$/i],
  ['debt', /^(total )?(debt|borrowings)$/i],
]

export function analyseEntries(data: PdfEntry[], pages: number) {
  const keyFigures: Record<string, number> = {}
  for (const entry of data) {
    const label = entry.label.replace(/\s+/g, ' ').trim()
    for (const [key, pattern] of KEY_LINES) {
      if (keyFigures[key] === undefined && pattern.test(label)) {
        keyFigures[key] = entry.value
        break
      }
    }
  }
  if (keyFigures.grossProfit === undefined && keyFigures.revenue !== undefined && keyFigures.costOfRevenue !== undefined) {
    keyFigures.grossProfit = keyFigures.revenue - Math.abs(keyFigures.costOfRevenue)
  }
  const ratios: Record<string, number> = {}
  const share = (numerator: string, denominator: string, name: string) => {
    const top = keyFigures[numerator]
    const bottom = keyFigures[denominator]
    if (top !== undefined && bottom !== undefined && bottom !== 0) ratios[name] = top / bottom
  }
  share('grossProfit', 'revenue', 'grossMargin')
  share('operatingIncome', 'revenue', 'operatingMargin')
  share('ebitda', 'revenue', 'ebitdaMargin')
  share('netIncome', 'revenue', 'netMargin')
  share('debt', 'equity', 'debtToEquity')
  share('netIncome', 'equity', 'returnOnEquity')
  share('netIncome', 'totalAssets', 'returnOnAssets')
  const described = Object.entries(keyFigures).map(([key, value]) => `${key} ${value.toLocaleString('en-US')}`)
  const summary =
    `Extracted ${data.length} ${data.length === 1 ? 'entry' : 'entries'} from ${pages} ${pages === 1 ? 'page' : 'pages'}` +
    (described.length > 0 ? `; key figures: ${described.join(', ')}` : '; no standard statement lines recognised') +
    (Object.keys(ratios).length > 0 ? `; ${Object.entries(ratios).map(([name, value]) => `${name} ${(value * 100).toFixed(1)}%`).join(', ')}` : '') +
    '.'
  return { entries: data.length, summary, keyFigures, ratios }
}
