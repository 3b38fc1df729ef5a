/**
 * OpenAI embeddings through the real openai SDK against a local server that speaks the embeddings
 * API (POST /v1/embeddings), as the paid API cannot run here. Its vectors are made from the text's
 * letters, so that equal texts get equal vectors and the search over them can be checked.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore, SqliteVectorStore } from '@finsheet/platform'
import { CellSearch } from '../search/cell-search.js'
import { MODEL_WORKBOOKS } from '../relevance/model-workbooks.js'
import { createEmbedder } from './create-embedder.js'
import { LexicalEmbedder } from './lexical-embedder.js'
import { OpenAiEmbedder } from './openai-embedder.js'

interface Seen {
  authorization: string | undefined
  model: string
  inputs: number
  dimensions?: number
}

let server: Server
let baseURL: string
const seen: Seen[] = []
let failNext = 0

/** A 24-component vector of the text's letter counts: crude, deterministic, and never zero. */
function stubVector(text: string, size = 24): number[] {
  const vector = new Array<number>(size).fill(0)
  vector[0] = 0.01
  for (const char of text.toLowerCase()) if (char >= 'a' && char <= 'z') vector[(char.charCodeAt(0) - 97) % size] += 1
  return vector
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }))
        return
      }
      if (failNext > 0) {
        failNext--
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }))
        return
      }
      const parsed = JSON.parse(body) as { model: string; input: string[] | string; encoding_format?: string; dimensions?: number }
      const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input]
      seen.push({ authorization: request.headers.authorization, model: parsed.model, inputs: inputs.length, dimensions: parsed.dimensions })
      const size = parsed.dimensions ?? 24
      // Answered out of order: clients must place vectors by their index.
      const data = inputs.map((input, index) => ({ object: 'embedding', index, embedding: stubVector(input, size) })).reverse()
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: parsed.model, usage: { prompt_tokens: 1, total_tokens: 1 } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe('OpenAI embeddings', () => {
  it('learns the vector size from the model, sends the key and model, and keeps the input order', async () => {
    const embedder = await createEmbedder({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, EMBEDDINGS_MODEL: 'text-embedding-3-small' })
    expect(embedder).toBeInstanceOf(OpenAiEmbedder)
    expect(embedder.id).toBe('openai:text-embedding-3-small')
    expect(embedder.dimensions).toBe(24)
    const [a, b] = await embedder.embedDocuments(['aaa', 'bbb'])
    expect(a).toEqual(stubVector('aaa'))
    expect(b).toEqual(stubVector('bbb'))
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer sk-test', model: 'text-embedding-3-small', inputs: 2 })
  })

  it('sends many texts in batches, asks for a size when configured, and retries a failing server', async () => {
    const embedder = new OpenAiEmbedder({ apiKey: 'sk-test', baseURL, model: 'text-embedding-3-large', dimensions: 32 })
    const before = seen.length
    const vectors = await embedder.embedDocuments(Array.from({ length: 600 }, (_, i) => `text ${i}`))
    expect(vectors).toHaveLength(600)
    expect(vectors.every((vector) => vector.length === 32)).toBe(true)
    expect(seen.slice(before).map((request) => request.inputs)).toEqual([256, 256, 88])
    expect(seen.at(-1)?.dimensions).toBe(32)
    failNext = 1
    expect(await embedder.embedQuery('after a failure')).toHaveLength(32)
    failNext = 10
    await expect(embedder.embedQuery('the server stays down')).rejects.toThrow()
    failNext = 0
  })

  it('uses the offline embedder without a key, or with a key but no embeddings model asked for', async () => {
    expect(await createEmbedder({ EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toBeInstanceOf(LexicalEmbedder)
    expect(await createEmbedder({ OPENAI_API_KEY: 'sk-chat-only' })).toBeInstanceOf(LexicalEmbedder)
  })

  it('keeps each embedder in its own collection, and lists the workbooks to index again after a change of embedder', async () => {
    const vectors = new SqliteVectorStore(':memory:')
    const store = await createSqliteDocumentStore({ path: ':memory:' })
    const offline = new CellSearch(vectors, new LexicalEmbedder(), store)
    await offline.start()
    await offline.index(MODEL_WORKBOOKS[0], 'analyst')
    const openai = new CellSearch(vectors, await createEmbedder({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, EMBEDDINGS_MODEL: 'text-embedding-3-small' }), store)
    await openai.start()
    expect(openai.collection).not.toBe(offline.collection)
    expect((await openai.staleWorkbooks()).map((workbook) => workbook.id)).toEqual([MODEL_WORKBOOKS[0].workbookId])
    expect(await openai.search('terminal value', 'analyst', { limit: 3 })).toEqual([])
    await openai.index(MODEL_WORKBOOKS[0], 'analyst')
    expect(await openai.staleWorkbooks()).toEqual([])
    const found = await openai.search('Terminal value', 'analyst', { limit: 3 })
    expect(found[0]).toMatchObject({ label: 'Terminal value', kind: 'label' })
    expect(await vectors.count(openai.collection)).toBe(await vectors.count(offline.collection))
  })
})
