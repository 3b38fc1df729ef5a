import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('linus', 'Linus'))
})
afterAll(async () => {
  await t.close()
})

describe('workbooks', () => {
  it('creates, lists newest first with limit and offset (defaults 10 and 0), reads, renames and deletes', async () => {
    const list = clientFor(t.app, await t.tokenFor('lister'))
    const ids: string[] = []
    for (let i = 1; i <= 12; i++) ids.push((await list('POST', '/workbooks', { name: `Book ${i}` })).json.workbookId)
    await list('POST', '/update-cell', { workbookId: ids[2], cellAddress: 'A1', value: 'touched' })
    const first = await list('GET', '/workbooks')
    expect(first.json).toMatchObject({ total: 12, limit: 10, offset: 0 })
    expect(first.json.workbooks).toHaveLength(10)
    expect(first.json.workbooks[0].name).toBe('Book 3')
    expect(first.json.workbooks[1].name).toBe('Book 12')
    const rest = await list('GET', '/workbooks?limit=5&offset=10')
    expect(rest.json.workbooks.map((workbook: { name: string }) => workbook.name)).toEqual(['Book 2', 'Book 1'])
    expect((await list('GET', '/workbooks?limit=0')).status).toBe(400)
    expect((await list('GET', '/workbooks?offset=-1')).status).toBe(400)

    const meta = await list('GET', `/workbooks/${ids[0]}`)
    expect(meta.json.workbook).toEqual({
      id: ids[0],
      workbookId: ids[0],
      name: 'Book 1',
      createdBy: 'lister',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      sheets: ['Sheet1'],
      isAIGenerated: false,
      storageUrl: null,
      templateId: null,
      iterativeCalculation: false,
      revision: 1,
      totalSheets: 1,
      totalCells: 0,
      totalFormulas: 0,
      isDefault: false,
    })
    const renamed = await list('PATCH', `/workbooks/${ids[0]}`, { name: '  Renamed  ' })
    expect(renamed.json.workbook.name).toBe('Renamed')
    expect((await list('PATCH', `/workbooks/${ids[0]}`, { name: '   ' })).status).toBe(400)
    expect((await list('POST', '/workbooks', { name: '' })).json.error.code).toBe('INVALID_WORKBOOK_NAME')
    expect((await list('POST', '/workbooks', { name: 'x', templateId: 'lbo' })).json.error).toEqual({ code: 'TEMPLATE_NOT_FOUND', message: 'Unknown template: lbo' })

    const deleted = await list('DELETE', `/workbook/${ids[0]}`)
    expect(deleted.json).toEqual({ success: true, workbookId: ids[0], restorableUntil: expect.any(String) })
    expect((await list('GET', `/workbooks/${ids[0]}`)).status).toBe(404)
    expect((await list('GET', `/workbook/${ids[0]}/cells`)).json.error).toEqual({ code: 'WORKBOOK_NOT_FOUND', message: 'Workbook not found' })
    expect((await list('GET', '/workbooks')).json.total).toBe(11)
    expect((await list('DELETE', `/workbook/${ids[0]}`)).status).toBe(404)
  })

  it('answers the full workbook in the server-side shape of spec 2 §3', async () => {
    const id = (await call('POST', '/workbooks', { name: 'Full' })).json.workbookId
    await call('POST', '/update-cells', { workbookId: id, updates: [{ cellAddress: 'A1', value: 'Label' }, { cellAddress: 'B2', formula: '=2*21' }] })
    const full = await call('GET', `/workbook/${id}`)
    expect(full.status).toBe(200)
    expect(full.json.workbook).toMatchObject({
      workbookId: id,
      name: 'Full',
      sheetOrder: ['Sheet1'],
      totalCells: 2,
      totalSheets: 1,
      totalFormulas: 1,
      createdBy: 'linus',
      isAIGenerated: false,
      storageUrl: null,
      metadata: { workbookName: 'Full', sheetCount: 1, cellCount: 2, formulaCount: 1, charts: [], createdAt: expect.any(String), updatedAt: expect.any(String) },
    })
    expect(full.json.workbook.sheets[0]).toMatchObject({ name: 'Sheet1', rowCount: 2, columnCount: 2, cells: { B2: { value: 42, formula: '=2*21' } } })
  })

  it('stores a parsed workbook from the bulk import in one write, refusing a bad one whole', async () => {
    const body = {
      name: 'Imported',
      storageUrl: 'users/linus/files/1-model.xlsx',
      sheets: [
        {
          name: 'Data',
          cells: [
            { address: 'A1', input: 'Units' },
            { address: 'B1', input: 12, format: '0.0' },
            { address: 'B2', input: '=B1*Rate', style: { bold: true } },
          ],
          columnWidths: { '0': 140 },
          merges: ['A5:B5'],
        },
        { name: 'Other', cells: [{ address: 'C3', input: "'00123" }] },
      ],
      definedNames: [{ name: 'Rate', formula: '=0.5' }],
    }
    const imported = await call('POST', '/workbooks/import', body)
    expect(imported.status).toBe(201)
    expect(imported.json).toMatchObject({ cellCount: 4, formulaCount: 1, workbook: { sheets: ['Data', 'Other'], storageUrl: 'users/linus/files/1-model.xlsx' } })
    const data = (await call('GET', `/workbook/${imported.json.workbookId}/cells?sheet=Data`)).json.workbook.sheets[0]
    expect(data.cells.B2).toMatchObject({ value: 6, style: { bold: true } })
    expect(data.cells.B1.display).toBe('12.0')
    expect(data).toMatchObject({ columnWidths: { '0': 140 }, merges: ['A5:B5'] })
    const other = (await call('GET', `/workbook/${imported.json.workbookId}/cells?sheet=Other`)).json.workbook.sheets[0]
    expect(other.cells.C3).toMatchObject({ value: '00123', type: 'text' })

    const before = (await call('GET', '/workbooks?limit=100')).json.total
    const bad = await call('POST', '/workbooks/import', { ...body, sheets: [body.sheets[0], { name: 'data', cells: [] }] })
    expect(bad.status).toBe(409)
    const badCell = await call('POST', '/workbooks/import', { ...body, sheets: [{ name: 'X', cells: [{ address: 'AAAA1', input: 1 }] }] })
    expect(badCell.status).toBe(400)
    expect((await call('GET', '/workbooks?limit=100')).json.total).toBe(before)
  })
})

describe('templates', () => {
  it('lists the five built-in templates with categories, difficulties, tags and 15 preview rows A to F', async () => {
    const answer = await call('GET', '/templates')
    expect(answer.status).toBe(200)
    const templates = answer.json.templates
    expect(templates.map((template: { name: string; category: string; difficulty: string }) => [template.name, template.category, template.difficulty])).toEqual([
      ['DCF Model', 'Valuation', 'Advanced'],
      ['Three Statement Financial Model', 'Financial Reporting', 'Intermediate'],
      ['Startup Financial Model', 'Entrepreneurship', 'Intermediate'],
      ['SaaS Metrics Dashboard', 'SaaS', 'Beginner'],
      ['Real Estate Investment Analysis', 'Real Estate', 'Intermediate'],
    ])
    for (const template of templates) {
      expect(template.template).toHaveLength(15)
      expect(template.preview).toHaveLength(15)
      expect(Object.keys(template.template[0])).toEqual(['rowIndex', 'A', 'B', 'C', 'D', 'E', 'F'])
      expect(template.tags.length).toBeGreaterThan(0)
      for (const tag of template.tags) expect(answer.json.tags).toContain(tag)
    }
    expect(answer.json.categories).toEqual(['Valuation', 'Financial Reporting', 'Entrepreneurship', 'SaaS', 'Real Estate', 'Personal Finance'])
    const dcf = templates[0]
    expect(dcf.template[5]).toMatchObject({ A: 'Revenue in the last actual year', B: 1000 })
    expect(dcf.preview[5]).toMatchObject({ A: 'Revenue in the last actual year', B: '1,000' })
    expect(dcf.preview[9]).toMatchObject({ A: 'Risk-free rate', B: '4.0%' })
    expect(dcf.preview[3]).toMatchObject({ A: 'Company', B: 'Your Company' })

    expect((await call('GET', '/templates?difficulty=Beginner')).json.templates.map((template: { id: string }) => template.id)).toEqual(['saas-metrics-dashboard'])
    expect((await call('GET', '/templates?search=cash flow&category=Valuation')).json.templates).toHaveLength(1)
    expect((await call('GET', '/templates?tag=Startup')).json.templates[0].name).toBe('Startup Financial Model')
    expect((await call('GET', '/templates?search=nothing-like-this')).json.templates).toEqual([])
    expect((await call('GET', '/templates/dcf-model')).json.template.sheets).toEqual(['Assumptions', 'Revenue', 'Operating', 'FCF', 'Valuation'])
    expect((await call('GET', '/templates/nope')).status).toBe(404)
  })
})

describe('search, charts and metrics', () => {
  it("finds cells by value or formula text across the user's workbooks only", async () => {
    const searcher = clientFor(t.app, await t.tokenFor('searcher'))
    const a = (await searcher('POST', '/workbooks', { name: 'Alpha' })).json.workbookId
    const b = (await searcher('POST', '/workbooks', { name: 'Beta' })).json.workbookId
    await searcher('POST', '/update-cells', { workbookId: a, updates: [{ cellAddress: 'A1', value: 'Gross Margin' }, { cellAddress: 'B1', formula: '=SUM(C1:C3)' }] })
    await searcher('POST', '/update-cells', { workbookId: b, updates: [{ cellAddress: 'D4', value: 'margin of safety' }, { cellAddress: 'A1', value: 1234.5, format: '#,##0.00' }] })
    const stranger = clientFor(t.app, await t.tokenFor('stranger'))
    const theirs = (await stranger('POST', '/workbooks', { name: 'Secret' })).json.workbookId
    await stranger('POST', '/update-cell', { workbookId: theirs, cellAddress: 'A1', value: 'margin secret' })

    const found = await searcher('POST', '/search-cells', { query: 'MARGIN', limit: 20, includeFormulas: true })
    expect(found.status).toBe(200)
    expect(found.json.results.map((result: { metadata: { workbookName: string }; address: string }) => `${result.metadata.workbookName}!${result.address}`).sort()).toEqual([
      'Alpha!A1',
      'Beta!D4',
    ])
    expect(found.json.results.find((result: { address: string }) => result.address === 'D4')).toMatchObject({
      workbookId: b,
      sheet: 'Sheet1',
      metadata: { workbookName: 'Beta', sheetName: 'Sheet1', row: 4, column: 'D', type: 'text', matchedIn: 'value' },
    })
    const formulas = await searcher('POST', '/search-cells', { query: 'sum(c1', includeFormulas: true })
    expect(formulas.json.results).toEqual([expect.objectContaining({ address: 'B1', formula: '=SUM(C1:C3)', metadata: expect.objectContaining({ matchedIn: 'formula' }) })])
    expect((await searcher('POST', '/search-cells', { query: 'sum(c1', includeFormulas: false })).json.results).toEqual([])
    expect((await searcher('POST', '/search-cells', { query: '1,234.50' })).json.results[0].address).toBe('A1')
    const limited = await searcher('POST', '/search-cells', { query: 'a', limit: 1 })
    expect(limited.json).toMatchObject({ truncated: true, results: [expect.anything()] })
    expect((await searcher('POST', '/search-cells', { query: '' })).status).toBe(400)
    expect((await searcher('POST', '/search-cells', { query: 'margin', workbookId: theirs })).status).toBe(404)
  })

  it('stores a chart whose data follows the cells and the rows', async () => {
    const id = (await call('POST', '/workbooks', { name: 'Charts' })).json.workbookId
    await call('POST', '/update-cells', {
      workbookId: id,
      updates: [
        { cellAddress: 'A1', value: 'Year' },
        { cellAddress: 'B1', value: 'Revenue' },
        { cellAddress: 'C1', value: 'Costs' },
        { cellAddress: 'A2', value: '2024' },
        { cellAddress: 'B2', value: 100 },
        { cellAddress: 'C2', value: 60 },
        { cellAddress: 'A3', value: '2025' },
        { cellAddress: 'B3', formula: '=B2*1.1' },
        { cellAddress: 'C3', value: 65 },
      ],
    })
    const created = await call('POST', '/create-chart', { workbookId: id, type: 'bar', dataRange: 'Sheet1!A1:C3', title: 'P&L' })
    expect(created.status).toBe(201)
    expect(created.json.chart).toMatchObject({
      type: 'bar',
      title: 'P&L',
      sheet: 'Sheet1',
      dataRange: 'A1:C3',
      data: { labels: ['2024', '2025'], series: [{ name: 'Revenue', values: [100, 110.00000000000001] }, { name: 'Costs', values: [60, 65] }] },
    })
    await call('POST', '/update-cell', { workbookId: id, cellAddress: 'B2', value: 200 })
    await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1 }] })
    const charts = await call('GET', `/workbook/${id}/charts`)
    expect(charts.json.charts[0]).toMatchObject({ dataRange: 'A2:C4', data: { series: [{ name: 'Revenue', values: [200, 220.00000000000003] }, expect.anything()] } })
    expect((await call('POST', '/create-chart', { workbookId: id, type: 'radar', dataRange: 'A1:B2' })).status).toBe(400)
    expect((await call('POST', '/create-chart', { workbookId: id, type: 'pie', dataRange: 'A1:B' })).status).toBe(400)
    expect((await call('POST', '/create-chart', { workbookId: id, type: 'pie', dataRange: 'Nope!A1:B2' })).status).toBe(400)
    expect((await call('DELETE', `/workbook/${id}/charts/${created.json.chart.id}`)).status).toBe(200)
    expect((await call('GET', `/workbook/${id}/charts`)).json.charts).toEqual([])
    expect((await call('DELETE', `/workbook/${id}/charts/${created.json.chart.id}`)).status).toBe(404)
  })

  it('reports request counts and latency percentiles per route, recalculation times and engine-cache hits', async () => {
    const id = (await call('POST', '/workbooks', { name: 'Metrics' })).json.workbookId
    for (let i = 1; i <= 5; i++) await call('POST', '/update-cell', { workbookId: id, cellAddress: `A${i}`, value: i })
    const metrics = await call('GET', '/metrics/performance')
    expect(metrics.status).toBe(200)
    const route = metrics.json.requests.routes.find((entry: { route: string; method: string }) => entry.route === '/update-cell' && entry.method === 'POST')
    expect(route.count).toBeGreaterThanOrEqual(5)
    expect(route.latencyMs.p99).toBeGreaterThanOrEqual(route.latencyMs.p50)
    expect(route.latencyMs.p50).toBeGreaterThan(0)
    expect(metrics.json.recalculation.count).toBeGreaterThanOrEqual(5)
    expect(metrics.json.engineCache.hits).toBeGreaterThanOrEqual(4)
    expect(metrics.json.engineCache.hitRate).toBeGreaterThan(0)
    expect(metrics.json.writes.count).toBeGreaterThanOrEqual(5)
  })
})
