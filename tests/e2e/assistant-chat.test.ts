/**
 * The assistant panel in a real browser, through the real gateway and AI service, with OpenAI's API
 * played by the local stub (Anthropic left unconfigured) and the offline Local model:
 * - Alt+A, the toolbar button and the round button open and close it; it opens in Agent mode with
 *   the spec's header, subtitle, placeholder and six suggested prompts; the model picker groups the
 *   models by provider with tier badges and shows unconfigured ones disabled with why;
 * - a chat answer streams in while Stop is offered; a second send in flight and an empty one are
 *   ignored; '/' lists the suggested commands, Up recalls the last message, Stop cancels;
 * - a provider's refusal is shown with the spec's text and tips; the built-in models stand in when
 *   the list cannot be read; 'Selected: …' follows the grid; a formula card inserts its formula;
 *   the conversation survives a reload.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startOpenAiStub, type StubServer } from '@finsheet/ai-service/testing'
import type { AllInOne } from '@finsheet/standalone'
import { startAllInOne } from '@finsheet/standalone'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseMode, chooseModel, conversation, dismissNotifications, messageInput, panel, sendMessage, shownIn, signIn, signUp } from './support/assistant-page.js'
import { buildWebForTests } from './support/build-web.js'
import { E2E_TIMEOUT, launchChromium, newTestContext, POLL } from './support/chromium.js'
import { clickCell, typeEntry } from './support/grid-page.js'
import { pdfBuffer } from '../files/support/make-files.js'

const OUTPUT = resolve(fileURLToPath(new URL('../../test-output', import.meta.url)))
const OPENAI_KEY = 'sk-e2e-assistant-0123456789'
const WACC_ANSWER =
  'WACC is the weighted average cost of capital: the return a company must earn for its lenders and shareholders, each weighted by its share of the capital. It is the discount rate of a DCF.'

let browser: Browser
let stack: AllInOne
let openai: StubServer
let dataDir: string
let page: Page

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true })
  openai = await startOpenAiStub({ apiKey: OPENAI_KEY })
  const webRoot = await buildWebForTests()
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-e2e-assistant-chat-'))
  stack = await startAllInOne({
    port: 0,
    dataDir,
    logger: false,
    webRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000', OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openai.url },
  })
  const user = await signUp(stack.url, 'Grace Hopper')
  browser = await launchChromium()
  const context = await newTestContext(browser, { viewport: { width: 1440, height: 900 } })
  await context.addInitScript(() => localStorage.setItem('hasSeenTour', 'true'))
  page = await context.newPage()
  await signIn(page, stack.url, user)
  await page.getByRole('button', { name: /Start Blank/ }).click()
  await page.getByLabel('Formula bar').waitFor()
}, E2E_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await stack?.close()
  await openai?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const lastAnswer = () => conversation(page).locator('.from-assistant').last()

describe('the assistant panel', { timeout: E2E_TIMEOUT }, () => {
  it('opens with Alt+A in Agent mode, with the spec texts, the six prompts and the grouped model picker', async () => {
    await expect.poll(() => page.getByRole('button', { name: 'Open AI assistant' }).isVisible(), POLL).toBe(true)
    await clickCell(page, 'A1')
    await page.keyboard.press('Alt+A')
    await panel(page).waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), POLL).toBe('Message')
    await panel(page).getByRole('heading', { name: 'Agent' }).waitFor()
    expect(await panel(page).getByText('Automate spreadsheet tasks with natural language').isVisible()).toBe(true)
    expect(await messageInput(page).getAttribute('placeholder')).toBe('Describe what you want to do...')
    expect(await panel(page).getByRole('list', { name: 'Suggested prompts' }).getByRole('button').allInnerTexts()).toEqual([
      'Create a DCF model for Acme Corp',
      'Add revenue growth of 15% in years 2 to 5',
      'Build a WACC sensitivity table from 8% to 12%',
      'Calculate the IRR of the cash flows',
      'Create a waterfall chart of the selected data',
      'Change the selected cells to currency format',
    ])

    // OpenAI is configured, so GPT-4o is the default; Anthropic is not, and says what to set
    await panel(page).getByRole('button', { name: 'Model: GPT-4o' }).waitFor(POLL)
    await panel(page).getByRole('button', { name: 'Model: GPT-4o' }).click()
    const list = page.getByRole('listbox', { name: 'Models' })
    expect(await list.getByRole('group').evaluateAll((groups) => groups.map((group) => group.firstElementChild?.textContent))).toEqual(['Anthropic', 'OpenAI', 'Google Vertex AI', 'Local'])
    const claude = list.getByRole('option', { name: 'Claude Sonnet 4.6', exact: true })
    expect(await claude.getAttribute('aria-disabled')).toBe('true')
    expect(await claude.innerText()).toMatch(/standard[\s\S]*ANTHROPIC_API_KEY/)
    expect(await list.getByRole('option', { name: 'GPT-4o', exact: true }).getAttribute('aria-selected')).toBe('true')
    expect(await list.getByRole('option', { name: 'Local (offline)', exact: true }).getAttribute('aria-disabled')).toBe('false')
    await dismissNotifications(page)
    await page.screenshot({ path: join(OUTPUT, 'assistant-model-picker.png') })
    await page.keyboard.press('Escape')
    await dismissNotifications(page)
    await page.screenshot({ path: join(OUTPUT, 'assistant-agent-mode.png') })

    // Alt+A closes it again; the toolbar button and the round button open it
    await page.keyboard.press('Alt+A')
    await panel(page).waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'AI Assistant', exact: true, pressed: false }).click()
    await panel(page).waitFor()
    await panel(page).getByRole('button', { name: 'Close AI assistant' }).click()
    await page.getByRole('button', { name: 'Open AI assistant' }).click()
    await panel(page).waitFor()
  })

  it('streams a chat answer as it is generated, ignoring an empty send and a second one in flight', async () => {
    await chooseMode(page, 'Chat')
    expect(await panel(page).getByText('Ask questions about finance, formulas, and analysis').isVisible()).toBe(true)
    expect(await messageInput(page).getAttribute('placeholder')).toBe('Ask a question...')
    await messageInput(page).press('Enter')
    expect(await conversation(page).locator('.from-user').count()).toBe(0)

    openai.enqueue({ reply: { text: WACC_ANSWER, paceMs: 150 } })
    await sendMessage(page, 'What is WACC?')
    // part of the answer is on screen while the rest is still coming
    await expect.poll(() => lastAnswer().innerText(), POLL).toContain('WACC is the weighted')
    expect(await panel(page).getByRole('button', { name: 'Stop' }).isVisible()).toBe(true)
    expect(await lastAnswer().innerText()).not.toContain('discount rate of a DCF')
    await messageInput(page).fill('A second question')
    await messageInput(page).press('Enter')
    expect(await messageInput(page).inputValue()).toBe('A second question')
    await expect.poll(() => lastAnswer().innerText(), POLL).toContain('It is the discount rate of a DCF.')
    await panel(page).getByRole('button', { name: 'Send' }).waitFor()
    expect(openai.requests).toHaveLength(1)
    expect(openai.requests[0].body.stream).toBe(true)
    expect(JSON.stringify(openai.requests[0].body.messages)).toContain('What is WACC?')
    expect(await conversation(page).locator('.from-user').allInnerTexts()).toEqual(['What is WACC?'])
    await messageInput(page).fill('')
    await page.screenshot({ path: join(OUTPUT, 'assistant-chat-mode.png') })
  })

  it("lists the suggested commands on '/', takes one with Enter, and recalls the last message with Up", async () => {
    await messageInput(page).fill('')
    await messageInput(page).press('/')
    const commands = panel(page).getByRole('listbox', { name: 'Suggested commands' })
    await commands.waitFor()
    expect(await commands.getByRole('option').count()).toBe(6)
    await messageInput(page).pressSequentially('irr')
    expect(await commands.getByRole('option').allInnerTexts()).toEqual(['Calculate the IRR of the cash flows'])
    await messageInput(page).press('Enter')
    expect(await messageInput(page).inputValue()).toBe('Calculate the IRR of the cash flows')
    await commands.waitFor({ state: 'hidden' })
    await messageInput(page).fill('')
    await messageInput(page).press('ArrowUp')
    expect(await messageInput(page).inputValue()).toBe('What is WACC?')
    // Shift+Enter breaks the line instead of sending
    await messageInput(page).fill('First line')
    await messageInput(page).press('Shift+Enter')
    await messageInput(page).pressSequentially('second line')
    expect(await messageInput(page).inputValue()).toBe('First line\nsecond line')
    expect(await conversation(page).locator('.from-user').count()).toBe(1)
    await messageInput(page).fill('')
  })

  it('Stop cancels a running answer and keeps what had arrived', async () => {
    openai.enqueue({ reply: { text: `${WACC_ANSWER} ${WACC_ANSWER} ${WACC_ANSWER}`, paceMs: 300 } })
    await sendMessage(page, 'Explain WACC at length')
    await expect.poll(() => lastAnswer().innerText(), POLL).toContain('WACC is')
    await panel(page).getByRole('button', { name: 'Stop' }).click()
    await lastAnswer().getByText('Stopped.').waitFor(POLL)
    await panel(page).getByRole('button', { name: 'Send' }).waitFor()
    const kept = await lastAnswer().innerText()
    expect(kept).toContain('WACC is')
    await page.waitForTimeout(1000)
    expect(await lastAnswer().innerText()).toBe(kept)
  })

  it("shows a provider's refusal with the spec's text and tips, never the raw answer", async () => {
    openai.enqueue({ error: { status: 401, message: 'Incorrect API key provided' } })
    await sendMessage(page, 'What is a leveraged buyout?')
    const alert = lastAnswer().getByRole('alert')
    await alert.waitFor(POLL)
    const text = await alert.innerText()
    expect(text).toContain('Authentication error. Please refresh the page and try again.')
    expect(text).toContain('The AI provider refused the service’s API key; an administrator needs to check it.')
    expect(text).toContain('Use Agent mode to have the assistant change the spreadsheet.')
    expect(text).toContain("Try 'Create a DCF model for [company name]'.")
    expect(text).not.toMatch(/[{}]/)
  })

  it("says what is selected in the grid: 'Selected: address = value' or empty", async () => {
    await clickCell(page, 'A1')
    await typeEntry(page, '1200')
    await clickCell(page, 'A1')
    await panel(page).getByText('Selected: A1 = 1200').waitFor(POLL)
    await clickCell(page, 'B2')
    await panel(page).getByText('Selected: B2 = empty').waitFor(POLL)
  })

  it('offers formula cards whose detail dialog inserts the formula into the selected cell', async () => {
    await chooseModel(page, 'Local (offline)')
    await clickCell(page, 'C3')
    await sendMessage(page, 'Which function calculates a monthly loan payment?')
    const card = lastAnswer().getByRole('article', { name: /^Formula =PMT\(/ })
    await card.waitFor(POLL)
    await card.getByRole('button', { name: 'Details' }).click()
    const dialog = page.getByRole('dialog', { name: /^=PMT\(/ })
    await dialog.waitFor()
    const details = await dialog.innerText()
    for (const heading of ['Syntax', 'Description', 'Example Usage', 'Result']) expect(details).toContain(heading)
    expect(details).toContain('PMT(rate, nper, pv')
    await page.screenshot({ path: join(OUTPUT, 'assistant-formula-dialog.png') })
    const formula = await dialog.getByRole('heading').innerText()
    await dialog.getByRole('button', { name: 'Insert Formula' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await lastAnswer().getByText('Inserted into Sheet1!C3').waitFor(POLL)
    await shownIn(page, 'C3')
    expect(await page.getByLabel('Formula bar').inputValue()).toBe(formula)
  })

  it('opens after a PDF is read, and answers about its figures until the document is let go', async () => {
    await page.getByRole('button', { name: 'Import Document' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import Document' })
    const pdf = await pdfBuffer({ lines: ['Income statement FY2024', 'Total revenue 1,000.0', 'Net income 150.0'] })
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'fy2024.pdf', mimeType: 'application/pdf', buffer: pdf })
    await dialog.getByRole('button', { name: 'Process Document' }).click()
    await dialog.waitFor({ state: 'hidden', timeout: 60_000 })
    await expect.poll(() => lastAnswer().innerText(), POLL).toMatch(/fy2024\.pdf was read: \d+ figures extracted/)
    // the figures open as a new sheet of the workbook: Label, Value, Notes, then a row per figure
    await expect.poll(() => page.getByRole('tab', { selected: true }).innerText(), POLL).toBe('fy2024')
    expect([await shownIn(page, 'A1'), await shownIn(page, 'B1'), await shownIn(page, 'C1')]).toEqual(['Label', 'Value', 'Notes'])
    const labels: string[] = []
    for (let row = 2; row <= 6; row++) labels.push(await shownIn(page, `A${row}`))
    expect(labels).toContain('Net income')
    expect(await shownIn(page, `B${labels.indexOf('Net income') + 2}`)).toBe('150')
    await panel(page).getByText('Asking about fy2024.pdf').waitFor()
    await sendMessage(page, 'What was net income?')
    await expect.poll(() => lastAnswer().innerText(), POLL).toContain('Net income')
    expect(await lastAnswer().innerText()).toContain('150')
    await panel(page).getByRole('button', { name: 'Stop using it' }).click()
    await panel(page).getByText('Asking about fy2024.pdf').waitFor({ state: 'hidden' })
  })

  it('keeps the conversation of the workbook across a reload', async () => {
    await page.reload()
    await panel(page).waitFor(POLL)
    await expect.poll(() => conversation(page).locator('.from-user').allInnerTexts(), POLL).toEqual([
      'What is WACC?',
      'Explain WACC at length',
      'What is a leveraged buyout?',
      'Which function calculates a monthly loan payment?',
      'What was net income?',
    ])
    expect(await conversation(page).innerText()).toContain('It is the discount rate of a DCF.')
  })

  it("says 'Loading models...' while the list loads, 'No models available' for an empty one, and offers the built-in models when it cannot be loaded", async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/ai/availableModels', async (route) => {
      await held
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ models: [], defaultModel: '' }) })
    })
    await page.reload()
    await panel(page).getByRole('button', { name: 'Model', exact: true }).getByText('Loading models...').waitFor(POLL)
    release()
    await panel(page).getByRole('button', { name: 'Model', exact: true }).getByText('No models available').waitFor(POLL)
    await page.unroute('**/api/ai/availableModels')

    await page.route('**/api/ai/availableModels', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'The ai service is unavailable' } }) }))
    await page.reload()
    await panel(page).getByText('The model list could not be loaded: these are the built-in models.').waitFor({ timeout: 30_000 })
    await panel(page).getByRole('button', { name: /^Model: / }).click()
    expect(await page.getByRole('listbox', { name: 'Models' }).getByRole('option').evaluateAll((options) => options.map((option) => option.getAttribute('aria-label')))).toEqual([
      'Claude Sonnet 4.6',
      'Claude Haiku 4.5',
      'GPT-4o',
    ])
    await page.keyboard.press('Escape')
    await page.unroute('**/api/ai/availableModels')
  })
})
