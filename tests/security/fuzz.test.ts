/**
 * Fuzz, with fast-check, a fixed number of cases each (FUZZ_RUNS scales them, FUZZ_SEED varies them;
 * the seed is printed), against the stack in a process of its own: random formulas through the
 * engine and through the API, random CSV files through the reader and through an upload, and random
 * bodies for every route with a JSON body that the services' OpenAPI documents list, made from the
 * route's own schema with hostile values put in. No case may answer a 5xx or stop the process; the
 * engine and the reader may only refuse with their documented errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Engine, EngineUsageError, functionCatalogue, InvalidAddressError } from '@finsheet/formula'
import { ImportFileError, readCsvFile } from '@finsheet/workbook'
import { startIsolatedStack, type AccountApi, type Answer, type IsolatedStack } from './support/isolated-stack.js'
import { bodyArbitrary, type Hints, type JsonSchema } from './support/schema-arbitrary.js'
import { printTable } from './support/stack.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 1)
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126)
const runs = (base: number) => Math.max(1, Math.round(base * RUNS))

const root = mkdtempSync(join(tmpdir(), 'finsheet-fuzz-'))
let stack: IsolatedStack
let api: AccountApi
let uid: string
let fileId: string
const figures: Array<Array<string | number>> = []

beforeAll(async () => {
  stack = await startIsolatedStack(join(root, 'data'))
  api = await stack.anonymousUser()
  uid = (await api('GET', '/api/users/me')).json.uid
  const form = new FormData()
  form.append('file', new Blob(['Revenue,Cost\n100,60\n120,70\n']), 'plan.csv')
  const uploaded = await fetch(`${stack.url}/api/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${api.token}` }, body: form })
  expect(uploaded.status).toBe(201)
  fileId = ((await uploaded.json()) as { file: { id: string } }).file.id
}, 120_000)

afterAll(async () => {
  printTable(`Fuzz (seed ${SEED}, FUZZ_RUNS ${RUNS}): cases by target, none answered 5xx`, ['target', 'cases', 'answers', 'slowest ms'], figures)
  await stack?.stop()
  rmSync(root, { recursive: true, force: true })
})

const describeStatuses = (answers: Answer[]) => {
  const counts = new Map<number, number>()
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ')
}

/** Checks a batch of answers and the process, and records the figures of a target. */
function settle(target: string, cases: Array<{ input: unknown; answer: Answer }>): void {
  figures.push([target, cases.length, describeStatuses(cases.map((entry) => entry.answer)), Math.round(Math.max(0, ...cases.map((entry) => entry.answer.ms)))])
  expect(stack.alive(), `the stack stopped during ${target}`).toBe(true)
  const failed = cases.filter((entry) => entry.answer.status >= 500)
  expect(
    failed.slice(0, 3).map((entry) => `${entry.answer.status} ${entry.answer.text.slice(0, 300)} ← ${JSON.stringify(entry.input)?.slice(0, 600)}`),
    `${failed.length} of ${cases.length} cases of ${target} answered 5xx`,
  ).toEqual([])
}

// Formulas: mostly well-formed (functions of the catalogue, references of every kind, arrays, operators), some not.
const catalogue = functionCatalogue()
const number = fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(String), fc.constantFrom('0', '-0', '1E308', '-1E308', '1E-308', '0.1', '4096', '1048576', '99999999999999999999'))
const text = fc.string({ maxLength: 8 }).map((value) => `"${value.replace(/"/g, '""')}"`)
const reference = fc.constantFrom('A1', '$B$2', 'C3:D9', 'A:A', '1:1', 'XFD1048576', 'A1:XFD1048576', 'Sheet2!A1', "'My Sheet'!B2:C3", 'A1#', 'B1:B3 B2:C2', 'Nope!A1', 'x', 'LAMBDA', 'TRUE', '#REF!', '#N/A')
const atom = fc.oneof(number, text, reference, fc.constantFrom('{1,2;3,4}', '{"a",TRUE;#N/A,-1}', '{}', '@A1:A3'))
const formulaBody: fc.Arbitrary<string> = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('expression'), fc.constantFrom('+', '-', '*', '/', '^', '&', '=', '<>', '<=', '>=', ':', ' ', ','), tie('expression')).map(([a, op, b]) => `${a}${op}${b}`),
    fc.tuple(fc.constantFrom('-', '+', '--'), tie('expression')).map(([op, a]) => `${op}${a}`),
    tie('expression').map((a) => `(${a})`),
    tie('expression').map((a) => `${a}%`),
    fc
      .tuple(fc.constantFrom(...catalogue), fc.array(tie('expression'), { maxLength: 4 }))
      .map(([fn, args]) => `${fn.name}(${args.slice(0, Math.max(fn.minArgs, Math.min(args.length, fn.maxArgs))).join(',')})`),
    fc.tuple(fc.constantFrom('LET(x,', 'LAMBDA(x,', 'MAP(A1:A3,LAMBDA(v,'), tie('expression')).map(([head, body]) => `${head}${body})${head.startsWith('MAP') ? ')' : ''}`),
  ),
})).expression
const formula = fc.oneof({ weight: 5, arbitrary: formulaBody.map((body) => `=${body}`) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((junk) => `=${junk}`) })

describe('the formula parser and engine', () => {
  it('evaluates random formulas in the engine without throwing: a bad one is an error value', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.addSheet('Sheet2')
    engine.addSheet('My Sheet')
    engine.setCell('Sheet1', 'A1', '5')
    const cases = runs(1500)
    const started = performance.now()
    let slowest = 0
    fc.assert(
      fc.property(formula, (input) => {
        const at = performance.now()
        try {
          engine.setCell('Sheet1', 'H8', input)
          engine.getValue('Sheet1', 'H8')
        } catch (error) {
          // Misuse of the API would throw these; a formula never may.
          if (error instanceof InvalidAddressError || error instanceof EngineUsageError) throw new Error(`${input}: ${(error as Error).message}`)
          throw error
        } finally {
          slowest = Math.max(slowest, performance.now() - at)
        }
      }),
      { numRuns: cases, seed: SEED },
    )
    figures.push(['formulas in the engine', cases, `all evaluated in ${Math.round(performance.now() - started)} ms`, Math.round(slowest)])
  }, 120_000)

  it('answers random formulas sent to /changes with values, never a 5xx', async () => {
    const created = await api('POST', '/api/spreadsheet/workbooks', { name: 'Formula fuzz' })
    const id = created.json.workbookId as string
    await api('POST', `/api/spreadsheet/workbook/${id}/changes`, { commands: [{ type: 'add-sheet', name: 'Sheet2' }, { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '5' }, { address: 'A2', input: '7' }] }] })
    const batches = fc.sample(fc.array(formula, { minLength: 10, maxLength: 10 }), { numRuns: runs(30), seed: SEED })
    const cases: Array<{ input: unknown; answer: Answer }> = []
    for (const batch of batches) {
      const body = { commands: [{ type: 'set-cells', sheet: 'Sheet1', cells: batch.map((input, row) => ({ address: `C${row + 1}`, input })) }] }
      cases.push({ input: batch, answer: await api('POST', `/api/spreadsheet/workbook/${id}/changes`, body) })
    }
    settle('formulas through POST /changes (10 a request)', cases)
    expect(cases.filter((entry) => entry.answer.status === 200).length, 'most batches are stored').toBeGreaterThan(batches.length / 2)
  }, 180_000)
})

// CSV: the quoting, delimiters, line ends, encodings and injections that trip readers.
const csvUnit = fc.constantFrom(...'ab1,;\t|"\'\r\n =+-@.%$€£é日\u0000\u00a0'.split(''), '""', '\r\n', '1.234,5', '1,234.5', '(12)', '12%', '2024-01-31', '=cmd|\' /C calc\'!A0', 'TRUE', '#N/A', '  ')
const csvText = fc.oneof(
  fc.string({ unit: csvUnit, maxLength: 400 }),
  fc.array(fc.array(fc.string({ unit: csvUnit, maxLength: 12 }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 20 }).map((rows) => rows.map((row) => row.join(',')).join('\n')),
)
const csvBytes = fc.oneof(
  csvText.map((value) => Buffer.from(value)),
  fc.tuple(fc.constantFrom(Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff]), Buffer.alloc(0)), csvText).map(([bom, value]) => Buffer.concat([bom, Buffer.from(value, bom.length === 2 ? 'utf16le' : 'utf8')])),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
)

describe('the CSV reader', () => {
  it('reads random CSV files into a workbook or refuses them with an ImportFileError', async () => {
    const cases = fc.sample(csvBytes, { numRuns: runs(300), seed: SEED })
    const path = join(root, 'fuzz.csv')
    let refused = 0
    const started = performance.now()
    for (const bytes of cases) {
      writeFileSync(path, bytes)
      try {
        const workbook = await readCsvFile(path, { limits: { maxCells: 10_000 } })
        expect(workbook.sheets).toHaveLength(1)
      } catch (error) {
        if (!(error instanceof ImportFileError)) throw new Error(`${JSON.stringify(bytes.toString('latin1'))}: ${(error as Error).stack}`)
        refused++
      }
    }
    figures.push(['CSV files through the reader', cases.length, `${cases.length - refused} read, ${refused} refused`, Math.round(performance.now() - started)])
  }, 120_000)

  it('answers random CSV uploads to /upload-excel with a workbook or a 4xx', async () => {
    const cases: Array<{ input: unknown; answer: Answer }> = []
    for (const bytes of fc.sample(csvBytes, { numRuns: runs(25), seed: SEED + 1 })) {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(bytes)]), 'fuzz.csv')
      const sent = performance.now()
      const response = await fetch(`${stack.url}/api/spreadsheet/upload-excel`, { method: 'POST', headers: { authorization: `Bearer ${api.token}` }, body: form })
      const answerText = await response.text()
      cases.push({ input: bytes.toString('latin1'), answer: { status: response.status, text: answerText, ms: performance.now() - sent } as Answer })
    }
    settle('CSV files through POST /upload-excel', cases)
  }, 180_000)
})

interface Operation {
  area: string
  method: string
  path: string
  schema: JsonSchema
}

/** Every operation with a JSON body the services document, users' last (their sign-in limits must not touch the others). */
async function jsonOperations(): Promise<Operation[]> {
  const operations: Operation[] = []
  for (const area of ['spreadsheet', 'files', 'ai', 'vectordb', 'users']) {
    const document = (await api('GET', `/api/${area}/docs/json`)).json as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> }
    for (const [path, methods] of Object.entries(document.paths)) {
      // Internal routes are not reachable through the gateway (a test of their own says so).
      if (path.startsWith('/internal/')) continue
      for (const [method, operation] of Object.entries(methods)) {
        const schema = operation.requestBody?.content['application/json']?.schema
        if (schema) operations.push({ area, method: method.toUpperCase(), path, schema })
      }
    }
  }
  return operations
}

const address = fc.oneof(fc.constantFrom('A1', 'B2', 'C3', 'Z99', 'XFD1048576', 'A0', 'AAAA1', '$A$1'), fc.tuple(fc.constantFrom('A', 'B', 'C', 'D'), fc.integer({ min: 1, max: 20 })).map(([column, row]) => `${column}${row}`))
const range = fc.constantFrom('A1:B3', 'A1:A1', 'A:A', '1:1', 'A1:XFD1048576', 'B2:B', 'Sheet1!A1:C3', 'C3:A1')
const toolNames = fc.constantFrom('write_cells', 'read_range', 'get_workbook_overview', 'modify_structure', 'fill_formula', 'format_range', 'create_chart', 'explain_formula', 'search_workbook', 'trace_dependencies', 'validate_formula')
const toolArguments = fc.dictionary(
  fc.constantFrom('sheet', 'range', 'address', 'cells', 'source', 'target', 'action', 'at', 'count', 'include', 'style', 'numberFormat', 'query', 'formula', 'type', 'title', 'overwrite'),
  fc.oneof(fc.constantFrom('Sheet1', 'insert_rows', 'delete_columns', 'values', 'formulas', 'line'), range, address, formula, fc.integer({ min: -5, max: 2_000_000 }), fc.boolean(), fc.array(fc.record({ address, input: fc.oneof(formula, fc.string()) }), { maxLength: 3 })),
)

/** Values for properties whose name says what they hold: real ids and sheets, so the cases reach the handlers. */
function hintsFor(workbookId: string, versionId: string, templateIds: string[]): Hints {
  return {
    templateId: fc.constantFrom(...templateIds),
    workbookId: fc.constant(workbookId),
    fileId: fc.constant(fileId),
    uid: fc.constant(uid),
    userId: fc.constant(uid),
    versionId: fc.constant(versionId),
    model: fc.constantFrom('local'),
    sheet: fc.constantFrom('Sheet1', 'Sheet2'),
    sheetName: fc.constantFrom('Sheet1', 'Sheet2'),
    activeSheet: fc.constant('Sheet1'),
    address,
    cellAddress: address,
    range,
    selectedRange: range,
    ranges: fc.array(range, { minLength: 1, maxLength: 3 }),
    merges: fc.array(range, { maxLength: 2 }),
    // Near the workbook's own revision: an older one is rebased, a newer one refused.
    revision: fc.integer({ min: 0, max: 4 }),
    count: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(0, 1_048_576, 16_384)),
    at: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom(1_048_575, 16_383)),
    input: fc.oneof(formula, fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    formula,
    name: fc.oneof(toolNames, fc.string({ maxLength: 20 })),
    arguments: toolArguments,
    email: fc.emailAddress(),
  }
}

describe("every route's JSON body", () => {
  it('answers random bodies for every route with a JSON body with a 2xx or a 4xx, never a 5xx', async () => {
    const operations = await jsonOperations()
    expect(operations.length).toBeGreaterThan(25)
    const templateIds = ((await api('GET', '/api/spreadsheet/templates')).json.templates as Array<{ id: string }>).map((template) => template.id)
    let caseSeed = SEED
    for (const operation of operations) {
      // Each route gets a workbook of its own with two sheets, a version and a changeset to act on.
      const workbookId = (await api('POST', '/api/spreadsheet/workbooks', { name: `Fuzz ${operation.path}` })).json.workbookId as string
      await api('POST', `/api/spreadsheet/workbook/${workbookId}/changes`, { commands: [{ type: 'add-sheet', name: 'Sheet2' }, { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '5' }, { address: 'B1', input: '=A1*2' }] }] })
      const versionId = (await api('POST', `/api/spreadsheet/workbook/${workbookId}/save`, {})).json.version.id as string
      const changesetId = (await api('POST', `/api/spreadsheet/workbook/${workbookId}/agent-tools`, { calls: [{ id: 'call_0', name: 'write_cells', arguments: { sheet: 'Sheet1', cells: [{ address: 'C1', input: '1' }], overwrite: true } }] })).json.changesetId as string
      const params: Record<string, string> = {
        id: operation.area === 'files' ? fileId : operation.path.startsWith('/changesets/') ? changesetId : workbookId,
        fileId,
        versionId,
        sheet: 'Sheet1',
        address: 'A1',
      }
      const url = `/api/${operation.area}${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'unknown'))}`
      const bodies = fc.sample(bodyArbitrary(operation.schema, hintsFor(workbookId, versionId, templateIds)), { numRuns: runs(operation.area === 'users' ? 12 : 25), seed: caseSeed++ })
      const cases: Array<{ input: unknown; answer: Answer }> = []
      for (const body of bodies) cases.push({ input: body, answer: await api(operation.method, url, body) })
      settle(`${operation.method} /api/${operation.area}${operation.path}`, cases)
    }
  }, 600_000)
})
