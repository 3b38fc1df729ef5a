import { AGENT_TOOLS } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import type { ConversationMessage } from '../providers/conversation.js'
import { contextFromInstructions, createPlannerProvider, nextStep } from './planner-provider.js'

const TOOLS = AGENT_TOOLS.map((tool) => tool.name)
const specs = AGENT_TOOLS.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }))

/** What get_workbook_overview answers for a one-sheet workbook with a growth assumption in B2. */
const OVERVIEW = {
  workbook: 'Book',
  sheets: [{ name: 'Inputs', usedRange: 'A1:B3', cells: 6, formulas: 0, labelColumn: 'A', headerRows: [{ row: 1, cells: { B1: 'Value' } }], rowLabels: { A1: 'Assumption', A2: 'Revenue growth', A3: 'Tax rate' }, formulaPatterns: [] }],
  definedNames: [],
  charts: [],
}

function conversation(command: string, turns: { name: string; result: unknown; isError?: boolean }[][] = []): ConversationMessage[] {
  const messages: ConversationMessage[] = [
    { role: 'system', content: 'Where the user is:\nActive sheet: "Inputs"\nSelected range: B2:B3' },
    { role: 'user', content: command },
  ]
  turns.forEach((turn, index) => {
    messages.push({ role: 'assistant', content: '', toolCalls: turn.map((call, n) => ({ id: `t${index}_${n}`, name: call.name, arguments: {} })) })
    messages.push({ role: 'tool', results: turn.map((call, n) => ({ toolCallId: `t${index}_${n}`, content: typeof call.result === 'string' ? call.result : JSON.stringify(call.result), isError: call.isError ?? false })) })
  })
  return messages
}

describe('the planner as a provider', () => {
  it('reads where the user is from the instructions', () => {
    expect(contextFromInstructions('Active sheet: "Q1 Data"\nSelected range: B2:B9', ['read_range'])).toMatchObject({ activeSheet: 'Q1 Data', selection: 'B2:B9' })
    expect(contextFromInstructions('Active sheet: Inputs', []).activeSheet).toBe('Inputs')
    expect(contextFromInstructions(undefined, []).activeSheet).toBeUndefined()
  })

  it('looks over the workbook, reads the labelled row, then writes, taking each turn from the results so far', () => {
    const first = nextStep(conversation('set growth to 15%'), TOOLS)
    expect(first).toEqual({ calls: [{ name: 'get_workbook_overview', arguments: {} }] })
    const second = nextStep(conversation('set growth to 15%', [[{ name: 'get_workbook_overview', result: OVERVIEW }]]), TOOLS)
    expect(second).toEqual({ calls: [{ name: 'read_range', arguments: { sheet: 'Inputs', range: 'B2', include: 'both' } }] })
    const read = { rows: [{ row: 2, label: 'Revenue growth', cells: { B2: { value: 0.1, shown: '10%' } } }], nextOffset: null }
    const third = nextStep(conversation('set growth to 15%', [[{ name: 'get_workbook_overview', result: OVERVIEW }], [{ name: 'read_range', result: read }]]), TOOLS)
    expect(third).toEqual({ calls: [{ name: 'write_cells', arguments: { sheet: 'Inputs', cells: [{ address: 'B2', input: '15%' }], overwrite: true } }] })
    const written = { written: { 'Inputs!B2': { value: 0.15, shown: '15%' } }, newErrors: [] }
    const last = nextStep(conversation('set growth to 15%', [[{ name: 'get_workbook_overview', result: OVERVIEW }], [{ name: 'read_range', result: read }], [{ name: 'write_cells', result: written }]]), TOOLS)
    expect(last).toEqual({ answer: 'I read that as: set Inputs!B2 (Revenue growth) to 15%.\n\nNow Inputs!B2 = 15%.' })
  })

  it('stops with the tool’s reason when a write is refused, and writes nothing more', () => {
    const turns = [[{ name: 'get_workbook_overview', result: OVERVIEW }], [{ name: 'write_cells', result: 'Refused: the sheet is protected', isError: true }]]
    const step = nextStep(conversation('set B3 to 30%', turns), TOOLS)
    expect(step).toEqual({ answer: 'I could not write Inputs!B3: Refused: the sheet is protected' })
  })

  it('answers a label it cannot find with the labels it sees, calling no write tool', () => {
    const step = nextStep(conversation('set margin to 15%', [[{ name: 'get_workbook_overview', result: OVERVIEW }]]), TOOLS)
    expect(step).toEqual({ answer: 'I could not find a row labelled “margin”. The row labels I see are: Assumption (Inputs!A1), Revenue growth (Inputs!A2), Tax rate (Inputs!A3).' })
  })

  it('calls only tools the conversation offers', () => {
    expect(nextStep(conversation('set B3 to 30%'), ['read_range'])).toEqual({ answer: expect.stringContaining('get_workbook_overview, which is not offered here') })
  })

  it('answers a command it cannot read with what it can do', () => {
    const step = nextStep(conversation('tell me a joke'), TOOLS)
    expect('answer' in step && step.answer).toContain('I could not read “tell me a joke” as a spreadsheet command, so I changed nothing.')
  })

  it('completes as a model does: tool calls with ids, then streamed text, and no tokens spent', async () => {
    const provider = createPlannerProvider()
    expect(provider.provider).toBe('local')
    const started: string[] = []
    const calling = await provider.complete({ model: 'local', messages: conversation('add a sheet called Summary'), tools: specs }, { onToolCallStart: (call) => started.push(call.name) })
    expect(calling).toMatchObject({ stopReason: 'tool_use', usage: { inputTokens: 0, outputTokens: 0 }, message: { toolCalls: [{ id: 'planner_0_0', name: 'get_workbook_overview' }] } })
    expect(started).toEqual(['get_workbook_overview'])
    const pieces: string[] = []
    const answering = await provider.complete({ model: 'local', messages: conversation('hello'), tools: specs }, { onTextDelta: (text) => pieces.push(text) })
    expect(answering.stopReason).toBe('end_turn')
    expect(pieces.join('')).toBe(answering.message.content)
  })
})
