/**
 * The tool loop through a real SDK against the OpenAI stub: tools run and their results go back,
 * and every way a call can go wrong comes back to the model as the tool's error result.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '@finsheet/platform'
import { createOpenAiProvider } from '../providers/openai-provider.js'
import type { ConversationMessage, ToolCall } from '../providers/conversation.js'
import { startOpenAiStub, type StubServer } from '../testing/index.js'
import { COMPACTED_RESULT_PREFIX, MAX_TOOL_RESULT_CHARS, runConversation, type RunnableToolCall, type Toolset } from './tool-loop.js'

let stub: StubServer
beforeAll(async () => {
  stub = await startOpenAiStub()
})
afterAll(async () => {
  await stub.close()
})
beforeEach(() => stub.reset())

const provider = () => createOpenAiProvider({ provider: 'openai', apiKey: 'test', baseUrl: stub.url, timeoutMs: 3000 })

/** Read-only tools over a made-up sheet; `read_range` takes 100 ms, so parallel calls show as overlapping. */
function sheetTools(log: string[]): Toolset {
  return {
    specs: [
      { name: 'read_range', description: 'Reads a range', parameters: { type: 'object', properties: { range: { type: 'string' } }, required: ['range'] } },
      { name: 'huge', description: 'Returns too much', parameters: { type: 'object', properties: {} } },
      { name: 'broken', description: 'Fails', parameters: { type: 'object', properties: {} } },
    ],
    async run(call: ToolCall & { arguments: Record<string, unknown> }) {
      log.push(`start ${call.name} ${JSON.stringify(call.arguments)}`)
      if (call.name === 'huge') return { content: 'x'.repeat(MAX_TOOL_RESULT_CHARS + 500), isError: false }
      if (call.name === 'broken') throw new Error('database password is hunter2')
      if (typeof call.arguments.range !== 'string') throw new AppError('INVALID_RANGE', 400, 'range must be text such as A1:B3')
      await new Promise((resolve) => setTimeout(resolve, 100))
      log.push(`end ${call.name}`)
      return { content: `${call.arguments.range}: 1, 2, 3`, isError: false }
    },
  }
}

const conversation = (): ConversationMessage[] => [{ role: 'user', content: 'Read things' }]

describe('runConversation', () => {
  it('runs parallel calls side by side and sends every result back', async () => {
    stub.enqueue(
      { reply: { toolCalls: [{ id: 'a', name: 'read_range', arguments: { range: 'A1:A3' } }, { id: 'b', name: 'read_range', arguments: { range: 'B1:B3' } }] } },
      { reply: { text: 'Read both.' } },
    )
    const log: string[] = []
    const results: string[] = []
    const outcome = await runConversation({ provider: provider(), model: 'gpt-4o', messages: conversation(), toolset: sheetTools(log), maxToolCalls: 10, callbacks: { onToolResult: (call) => results.push(call.id) } })
    expect(outcome.message.content).toBe('Read both.')
    expect(outcome.stoppedBy).toBe('answer')
    expect(log.slice(0, 2)).toEqual(['start read_range {"range":"A1:A3"}', 'start read_range {"range":"B1:B3"}'])
    expect(results).toEqual(['a', 'b'])
    const sent = stub.requests[1].body.messages.filter((message: { role: string }) => message.role === 'tool')
    expect(sent).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'A1:A3: 1, 2, 3' },
      { role: 'tool', tool_call_id: 'b', content: 'B1:B3: 1, 2, 3' },
    ])
    expect(stub.requests[1].body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['read_range', 'huge', 'broken'])
    expect(outcome.usage.inputTokens).toBeGreaterThan(0)
  })

  it('answers an unknown tool, malformed arguments and failing tools as error results the model can read', async () => {
    stub.enqueue(
      {
        reply: {
          toolCalls: [
            { id: 'unknown', name: 'delete_sheet', arguments: {} },
            { id: 'malformed', name: 'read_range', arguments: '{"range": "A1' },
            { id: 'invalid', name: 'read_range', arguments: { range: 42 } },
            { id: 'broken', name: 'broken', arguments: {} },
            { id: 'huge', name: 'huge', arguments: {} },
          ],
        },
      },
      { reply: { text: 'I will try again differently.' } },
    )
    const outcome = await runConversation({ provider: provider(), model: 'gpt-4o', messages: conversation(), toolset: sheetTools([]), maxToolCalls: 10 })
    const byId = Object.fromEntries(outcome.toolCalls.map(({ call, result }) => [call.id, result]))
    expect(byId.unknown).toMatchObject({ isError: true, content: 'Unknown tool "delete_sheet". The tools are: read_range, huge, broken.' })
    expect(byId.malformed).toMatchObject({ isError: true, content: expect.stringMatching(/^Invalid arguments for read_range: The arguments are not valid JSON/) })
    expect(byId.invalid).toMatchObject({ isError: true, content: 'range must be text such as A1:B3' })
    // A tool's unexpected failure says which tool failed, never its internals.
    expect(byId.broken).toMatchObject({ isError: true, content: 'The tool broken failed' })
    expect(byId.huge.content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 200)
    expect(byId.huge.content).toMatch(/cut at 50,000 characters/)
    const sent = stub.requests[1].body.messages.filter((message: { role: string }) => message.role === 'tool')
    expect(sent.map((message: { content: string }) => message.content.slice(0, 20))).toEqual([
      'Error: Unknown tool ',
      'Error: Invalid argum',
      'Error: range must be',
      'Error: The tool brok',
      'xxxxxxxxxxxxxxxxxxxx',
    ])
    // The malformed arguments go back exactly as the model wrote them.
    expect(stub.requests[1].body.messages[1].tool_calls[1].function.arguments).toBe('{"range": "A1')
    expect(JSON.stringify(stub.requests[1].body)).not.toContain('hunter2')
  })

  it('stops when the model keeps calling tools past the budget', async () => {
    const call = (id: string) => ({ reply: { toolCalls: [{ id, name: 'read_range', arguments: { range: 'A1' } }] } })
    stub.enqueue(call('1'), call('2'), call('3'))
    const outcome = await runConversation({ provider: provider(), model: 'gpt-4o', messages: conversation(), toolset: sheetTools([]), maxToolCalls: 2 })
    expect(outcome.stoppedBy).toBe('tool_limit')
    expect(outcome.toolCalls).toHaveLength(2)
    expect(stub.requests).toHaveLength(3)
  })

  it('hands all the calls of one message to runTurn together, in order, after telling what is about to run', async () => {
    stub.enqueue(
      {
        reply: {
          toolCalls: [
            { id: 'w1', name: 'read_range', arguments: { range: 'A1' } },
            { id: 'bad', name: 'nope', arguments: {} },
            { id: 'w2', name: 'read_range', arguments: { range: 'B1' } },
          ],
        },
      },
      { reply: { text: 'Done.' } },
    )
    const turns: string[][] = []
    const announced: string[] = []
    const toolset: Toolset = {
      specs: sheetTools([]).specs,
      run: () => Promise.reject(new Error('runTurn is used instead')),
      async runTurn(calls: readonly RunnableToolCall[]) {
        turns.push(calls.map((call) => call.id))
        return calls.map((call) => ({ content: `read ${String(call.arguments.range)}`, isError: false }))
      },
    }
    const outcome = await runConversation({ provider: provider(), model: 'gpt-4o', messages: conversation(), toolset, maxToolCalls: 10, callbacks: { onToolCalls: (calls) => announced.push(...calls.map((call) => call.name)) } })
    expect(turns).toEqual([['w1', 'w2']])
    expect(announced).toEqual(['read_range', 'nope', 'read_range'])
    expect(outcome.toolCalls.map(({ call, result }) => [call.id, result.content])).toEqual([
      ['w1', 'read A1'],
      ['bad', 'Unknown tool "nope". The tools are: read_range, huge, broken.'],
      ['w2', 'read B1'],
    ])
  })

  it('stops a model still calling tools once the run has spent its token budget, without running them', async () => {
    const log: string[] = []
    stub.enqueue(
      { reply: { toolCalls: [{ id: '1', name: 'read_range', arguments: { range: 'A1' } }], usage: { inputTokens: 400, outputTokens: 10 } } },
      { reply: { toolCalls: [{ id: '2', name: 'read_range', arguments: { range: 'A2' } }], usage: { inputTokens: 600, outputTokens: 10 } } },
    )
    const outcome = await runConversation({ provider: provider(), model: 'gpt-4o', messages: conversation(), toolset: sheetTools(log), maxToolCalls: 10, maxTotalTokens: 1000 })
    expect(outcome.stoppedBy).toBe('token_budget')
    expect(outcome.usage).toEqual({ inputTokens: 1000, outputTokens: 20 })
    expect(log.filter((line) => line.startsWith('start'))).toEqual(['start read_range {"range":"A1"}'])
  })

  it('compacts earlier tool results together once they grow past the limit, keeping the latest turn and errors', async () => {
    const big = (id: string) => ({ reply: { toolCalls: [{ id, name: 'huge', arguments: {} }] } })
    stub.enqueue(big('h1'), { reply: { toolCalls: [{ id: 'e1', name: 'broken', arguments: {} }] } }, big('h2'), big('h3'), { reply: { text: 'Done.' } })
    await runConversation({ provider: provider(), model: 'gpt-4o', messages: conversation(), toolset: sheetTools([]), maxToolCalls: 10, compactToolResultsOver: 80_000 })
    const results = (index: number) => Object.fromEntries(stub.requests[index].body.messages.filter((message: { role: string }) => message.role === 'tool').map((message: { tool_call_id: string; content: string }) => [message.tool_call_id, message.content]))
    // Under the limit nothing changes, so the prompt's prefix stays as it was.
    expect(results(2).h1).toMatch(/^x{1000}/)
    // Past it every earlier result is compacted at once; the latest turn and the error stay whole.
    const fourth = results(3)
    expect(fourth.h1.startsWith(COMPACTED_RESULT_PREFIX)).toBe(true)
    expect(fourth.h1).toMatch(/ \(50,\d{3} characters of huge \{\}\); call the tool again if you need it\.\]$/)
    expect(fourth.e1).toBe('Error: The tool broken failed')
    expect(fourth.h2).toMatch(/^x{1000}/)
    // The next turn keeps the compacted text as it was: one change to the prefix, not one per turn.
    expect(results(4).h1).toBe(fourth.h1)
    expect(results(4).h2.startsWith(COMPACTED_RESULT_PREFIX)).toBe(true)
    expect(results(4).h3).toMatch(/^x{1000}/)
  })
})
