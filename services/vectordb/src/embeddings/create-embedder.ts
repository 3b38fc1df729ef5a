import type { VectordbConfig } from '../config.js'
import type { Embedder } from './embedder.js'
import { LexicalEmbedder } from './lexical-embedder.js'
import { OpenAiEmbedder } from './openai-embedder.js'

/** OpenAI's embeddings when OPENAI_API_KEY and EMBEDDINGS_MODEL are set; the offline default otherwise. */
export async function createEmbedder(config: Pick<VectordbConfig, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'EMBEDDINGS_MODEL' | 'EMBEDDINGS_DIMENSIONS'>): Promise<Embedder> {
  if (!config.OPENAI_API_KEY || !config.EMBEDDINGS_MODEL) return new LexicalEmbedder()
  const embedder = new OpenAiEmbedder({ apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL, model: config.EMBEDDINGS_MODEL, dimensions: config.EMBEDDINGS_DIMENSIONS })
  await embedder.start()
  return embedder
}
