/**
 * npm run bench:open — how long a large workbook of the spreadsheet service takes to open in headless
 * Chromium: from navigation to the first paint of its cells, and to the engine holding the whole
 * workbook (the page's `finsheet:first-screen` and `finsheet:workbook-ready` performance marks, set one
 * frame after each). Each run is a fresh page of a fresh browser context at the workbook's address,
 * signed in. Workbooks of 100,000 and 1,000,000 cells (half numbers, half formulas reading them) are
 * opened by their first screen (the default past 20,000 cells) and, beside it in the same run, whole
 * before the first paint (the `finsheet:streamedOpen` switch set to 'off'), as every workbook opened
 * before. Medians of RUNS runs after one warm-up of each. Targets for the streamed open of 1,000,000
 * cells: first paint under 1 s, engine ready under 3 s. Both include the 300 ms the app waits before it
 * loads a workbook's cells.
 *
 *   npm run bench:open                (option: --runs RUNS, default 5)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser } from 'playwright-core'
import { buildWebForTests } from '../e2e/support/build-web.js'
import { launchChromium, newTestContext } from '../e2e/support/chromium.js'

const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}
const RUNS = option('runs', 5)
const COLUMNS = 10
const SIZES = [100_000, 1_000_000]
const VIEWPORT = { width: 1440, height: 900 }
const TARGETS = { firstPaint: 1000, ready: 3000 }
const STREAMED_OPEN_SWITCH = 'finsheet:streamedOpen'

/** A, B, … J: a 0-based column's letter (ten columns). */
const letter = (col: number) => String.fromCharCode(65 + col)

/**
 * A workbook of `cells` cells on one sheet as the streamed import takes it: ten columns, five of
 * numbers and five of formulas (products, a running total, a row sum, a ratio) reading them.
 */
function workbookLines(name: string, cells: number): string {
  const rows = cells / COLUMNS
  const lines: string[] = [JSON.stringify({ name, sheets: [{ name: 'Model' }] })]
  let batch: [string, string | number][] = []
  for (let row = 1; row <= rows; row++) {
    for (let col = 0; col < 5; col++) batch.push([`${letter(col)}${row}`, ((row * 31 + col * 17) % 997) + 1])
    batch.push([`F${row}`, `=A${row}*B${row}`])
    batch.push([`G${row}`, row === 1 ? '=F1' : `=G${row - 1}+F${row}`])
    batch.push([`H${row}`, `=SUM(A${row}:E${row})`])
    batch.push([`I${row}`, `=H${row}/C${row}`])
    batch.push([`J${row}`, `=IF(I${row}>10,F${row},-F${row})`])
    if (batch.length >= 50_000) {
      lines.push(JSON.stringify({ sheet: 0, cells: batch }))
      batch = []
    }
  }
  if (batch.length > 0) lines.push(JSON.stringify({ sheet: 0, cells: batch }))
  lines.push(JSON.stringify({ end: { cells } }))
  return lines.join('\n')
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

interface Opening {
  firstPaint: number
  ready: number
}

async function main(): Promise<void> {
  console.log('Building the web app…')
  const webRoot = await buildWebForTests()
  const dataDir = mkdtempSync(join(tmpdir(), 'finsheet-open-bench-'))
  const big = String(512 * 1024 * 1024)
  const stack = await startAllInOne({
    port: 0,
    dataDir,
    logger: false,
    webRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000', BODY_LIMIT_BYTES: big, UPLOAD_LIMIT_BYTES: big },
  })
  let browser: Browser | undefined
  try {
    const who = { email: `open-bench.${Date.now()}@example.com`, password: 'amber-otter-42', fullName: 'Bench' }
    const registered = await fetch(`${stack.url}/api/users/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) })
    if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`)
    const login = await fetch(`${stack.url}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: who.email, password: who.password }) })
    const { token } = (await login.json()) as { token: string }

    const workbooks: { cells: number; id: string }[] = []
    for (const cells of SIZES) {
      const started = performance.now()
      const response = await fetch(`${stack.url}/api/spreadsheet/workbooks/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: workbookLines(`Open bench ${cells}`, cells),
      })
      const answer = (await response.json()) as { workbookId: string; cellCount: number }
      if (!response.ok) throw new Error(`import: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`)
      if (answer.cellCount !== cells) throw new Error(`imported ${answer.cellCount} cells, not ${cells}`)
      // A large import makes its first version after answering: a read waits for it, once.
      await fetch(`${stack.url}/api/spreadsheet/workbook/${answer.workbookId}/window?startRow=1&endRow=1`, { headers: { authorization: `Bearer ${token}` } })
      console.log(`Imported ${cells.toLocaleString('en-US')} cells in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      workbooks.push({ cells, id: answer.workbookId })
    }

    browser = await launchChromium()
    const signIn = await newTestContext(browser, { viewport: VIEWPORT })
    const page = await signIn.newPage()
    await page.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
    await page.goto(`${stack.url}/login`)
    await page.getByLabel('Email').fill(who.email)
    await page.getByLabel('Password').fill(who.password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL(/\/workbooks/)
    const signedIn = await signIn.storageState()
    await signIn.close()

    /** Opens the workbook in a fresh page and answers the two marks' times from navigation. */
    const open = async (id: string, streamed: boolean): Promise<Opening> => {
      const context = await newTestContext(browser!, { viewport: VIEWPORT, storageState: signedIn })
      await context.addInitScript(({ key, off }) => {
        localStorage.setItem('hasSeenTour', 'true')
        if (off) localStorage.setItem(key, 'off')
        else localStorage.removeItem(key)
      }, { key: STREAMED_OPEN_SWITCH, off: !streamed })
      const fresh = await context.newPage()
      await fresh.goto(`${stack.url}/workbooks/${id}?sheet=Model`)
      await fresh.waitForFunction(() => performance.getEntriesByName('finsheet:workbook-ready').length > 0, undefined, { timeout: 120_000, polling: 50 })
      const marks = await fresh.evaluate(() => ({
        firstPaint: performance.getEntriesByName('finsheet:first-screen')[0].startTime,
        ready: performance.getEntriesByName('finsheet:workbook-ready')[0].startTime,
      }))
      if (process.argv.includes('--trace')) {
        const requests = await fresh.evaluate(() =>
          performance.getEntriesByType('resource').map((entry) => {
            const timing = entry as PerformanceResourceTiming
            return { name: new URL(timing.name).pathname, start: timing.startTime, firstByte: timing.responseStart, end: timing.responseEnd, bytes: timing.encodedBodySize }
          }),
        )
        console.log(`  ${streamed ? 'streamed' : 'whole'} open of ${id}: first paint ${Math.round(marks.firstPaint)} ms, ready ${Math.round(marks.ready)} ms`)
        for (const request of requests) console.log(`    ${Math.round(request.start)}–${Math.round(request.end)} ms (first byte ${Math.round(request.firstByte)})  ${request.name} (${request.bytes.toLocaleString('en-US')} bytes)`)
      }
      // what the first screen painted is the service's: a formula cell's value as the grid labels it
      const label = await fresh.locator('[data-testid="cell-editor"]').getAttribute('aria-label')
      if (!label?.startsWith('A1 ')) throw new Error(`the grid did not show A1: ${label}`)
      await context.close()
      return marks
    }

    const rows: { cells: number; path: string; firstPaint: number[]; ready: number[] }[] = []
    for (const { cells, id } of workbooks) {
      const streamed = { cells, path: 'first screen (streamed)', firstPaint: [] as number[], ready: [] as number[] }
      const whole = { cells, path: 'whole workbook (before)', firstPaint: [] as number[], ready: [] as number[] }
      await open(id, true)
      await open(id, false)
      // alternated, so that both paths see the same machine
      for (let run = 0; run < RUNS; run++) {
        for (const [series, isStreamed] of [
          [streamed, true],
          [whole, false],
        ] as const) {
          const opening = await open(id, isStreamed)
          series.firstPaint.push(opening.firstPaint)
          series.ready.push(opening.ready)
        }
      }
      rows.push(streamed, whole)
    }

    const load = loadavg().map((n) => n.toFixed(2)).join(' ')
    const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`
    console.log(`\nOpening a service-kept workbook in headless Chromium: medians of ${RUNS} runs (fresh page each), load average ${load}`)
    console.log('| cells | path | first paint | engine ready | first paint target | engine ready target |')
    console.log('|---:|---|---:|---:|---|---|')
    let failed = false
    for (const row of rows) {
      const firstPaint = median(row.firstPaint)
      const ready = median(row.ready)
      const targeted = row.cells === 1_000_000 && row.path.startsWith('first screen')
      const verdict = (value: number, target: number) => (targeted ? `< ${ms(target)} ${value < target ? 'met' : 'MISSED'}` : '—')
      if (targeted && (firstPaint >= TARGETS.firstPaint || ready >= TARGETS.ready)) failed = true
      console.log(`| ${row.cells.toLocaleString('en-US')} | ${row.path} | ${ms(firstPaint)} | ${ms(ready)} | ${verdict(firstPaint, TARGETS.firstPaint)} | ${verdict(ready, TARGETS.ready)} |`)
    }
    console.log(`\nAll runs (first paint / engine ready, ms):`)
    for (const row of rows) console.log(`  ${row.cells.toLocaleString('en-US')} ${row.path}: ${row.firstPaint.map((v, i) => `${Math.round(v)}/${Math.round(row.ready[i])}`).join(', ')}`)
    if (failed) process.exitCode = 1
  } finally {
    await browser?.close()
    await stack.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
