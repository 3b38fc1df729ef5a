import OpenAI from 'openai'
import type { Embedder } from './embedder.js'

export interface OpenAiEmbedderOptions {
  apiKey: string
  /** Another server speaking OpenAI's embeddings API. */
  baseURL?: string
  model: string
  /** Asked of models that can shorten their vectors; otherwise the model's own size, learnt on first use. */
  dimensions?: number
  timeoutMs?: number
}

/** Inputs sent in one request; the API takes up to 2,048. */
const BATCH = 256
/** Characters of one input: well within every embedding model's token limit. */
const MAX_INPUT = 8000

/** Embeddings from OpenAI's API through the official SDK (text-embedding-3-small by default). */
export class OpenAiEmbedder implements Embedder {
  private readonly client: OpenAI
  private size: number | undefined

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, timeout: options.timeoutMs ?? 30_000, maxRetries: 2 })
    this.size = options.dimensions
  }

  get id(): string {
    return `openai:${this.options.model}`
  }

  get dimensions(): number {
    if (this.size === undefined) throw new Error('The embedding size is known once the model has answered: call start() first')
    return this.size
  }

  /** Asks the model once, to learn its vector size when config does not say it. */
  async start(): Promise<void> {
    if (this.size === undefined) this.size = (await this.request(['dimensions probe']))[0].length
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    const vectors: number[][] = []
    for (let start = 0; start < texts.length; start += BATCH) vectors.push(...(await this.request(texts.slice(start, start + BATCH))))
    return vectors
  }

  async embedQuery(text: string): Promise<number[]> {
    return (await this.request([text]))[0]
  }

  private async request(texts: readonly string[]): Promise<number[][]> {
    const input = texts.map((text) => text.slice(0, MAX_INPUT) || ' ')
    const answer = await this.client.embeddings.create({
      model: this.options.model,
      input,
      encoding_format: 'float',
      ...(this.options.dimensions ? { dimensions: this.options.dimensions } : {}),
    })
    const ordered = [...answer.data].sort((a, b) => a.index - b.index).map((item) => item.embedding)
    if (ordered.length !== input.length) throw new Error(`The embeddings API answered ${ordered.length} vectors for ${input.length} inputs`)
    if (this.size !== undefined && ordered.some((vector) => vector.length !== this.size)) throw new Error(`The embeddings API answered vectors of another size than ${this.size}`)
    return ordered
  }
}
