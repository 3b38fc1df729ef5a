import { Type, type Static } from 'typebox'
import { ConfigError, loadConfig, platformEnvProperties, usersUrlProperty } from '@finsheet/platform'
import { DEFAULT_AGENT_DEADLINE_MS, DEFAULT_AGENT_TOKEN_BUDGET } from './agent/agent-limits.js'
import { DEFAULT_MODEL_WAIT_MS } from './models/model-limits.js'

const httpUrl = (description: string, defaultUrl?: string) =>
  Type.String({ pattern: '^https?://[^\\s]+$', description, ...(defaultUrl === undefined ? {} : { default: defaultUrl }) })

export const AiEnv = Type.Object({
  ...platformEnvProperties,
  ...usersUrlProperty,
  PORT: Type.Integer({ default: 3004, minimum: 0, maximum: 65_535 }),
  SPREADSHEET_URL: httpUrl('The spreadsheet service, which evaluates formulas against workbooks', 'http://127.0.0.1:3002'),
  FILES_URL: httpUrl('The files service, which holds the figures extracted from uploaded PDFs', 'http://127.0.0.1:3003'),
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1, description: 'Enables the OpenAI models' })),
  OPENAI_BASE_URL: Type.Optional(httpUrl('Another endpoint speaking the Chat Completions API (a proxy, or a vLLM, llama.cpp or Ollama server)')),
  OPENAI_MODELS: Type.Optional(
    Type.String({ pattern: '^\\s*[^,\\s]+(\\s*,\\s*[^,\\s]+)*\\s*$', description: 'Comma-separated model ids the OpenAI-compatible server at OPENAI_BASE_URL serves' }),
  ),
  ANTHROPIC_API_KEY: Type.Optional(Type.String({ minLength: 1, description: 'Enables the Anthropic models' })),
  ANTHROPIC_BASE_URL: Type.Optional(httpUrl('Another endpoint speaking the Messages API')),
  GOOGLE_CLOUD_PROJECT: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9-]{4,61}[a-z0-9]$', description: 'Enables Gemini on Vertex AI, with application default credentials' })),
  GOOGLE_CLOUD_LOCATION: Type.String({ default: 'us-central1', pattern: '^[a-z0-9-]+$', description: 'The Vertex AI region' }),
  GOOGLE_VERTEX_BASE_URL: Type.Optional(httpUrl('Another endpoint speaking the Vertex AI API')),
  AI_REQUEST_TIMEOUT_MS: Type.Integer({ default: 60_000, minimum: 100, maximum: 600_000, description: 'How long one attempt of a model request may take' }),
  AI_AGENT_DEADLINE_MS: Type.Integer({ default: DEFAULT_AGENT_DEADLINE_MS, minimum: 1000, maximum: 600_000, description: 'How long one agent-mode command may run before it stops, changing nothing' }),
  AI_AGENT_TOKEN_BUDGET: Type.Integer({ default: DEFAULT_AGENT_TOKEN_BUDGET, minimum: 1000, description: 'Model tokens (input and output, over every turn) one agent-mode command may use' }),
  /** auto: generate models in this process with the embedded queue, and leave it to ai-worker with Redis. */
  RUN_WORKER: Type.Union([Type.Literal('auto'), Type.Literal('true'), Type.Literal('false')], { default: 'auto' }),
  WORKER_CONCURRENCY: Type.Integer({ default: 2, minimum: 1, maximum: 16 }),
  /** A file the worker touches after each poll, for container health checks; default in the temporary folder. */
  WORKER_HEARTBEAT_FILE: Type.Optional(Type.String({ minLength: 1 })),
  AI_MODEL_WAIT_MS: Type.Integer({
    default: DEFAULT_MODEL_WAIT_MS,
    minimum: 100,
    maximum: 600_000,
    description: 'How long generate-financial-model waits for its job before answering that the model is still being created',
  }),
  AI_DAILY_TOKEN_LIMIT: Type.Optional(Type.Integer({ minimum: 1, description: 'Model tokens (input and output) a user may use per UTC day; unset for no limit' })),
})
export type AiConfig = Static<typeof AiEnv>

export function loadAiConfig(env: Record<string, string | undefined> = process.env): AiConfig {
  const config = loadConfig(AiEnv, env)
  if (config.OPENAI_MODELS !== undefined && config.OPENAI_BASE_URL === undefined) {
    throw new ConfigError(['OPENAI_MODELS needs OPENAI_BASE_URL: the ids it lists are those the server at that URL serves'])
  }
  return config
}

/** The ids OPENAI_MODELS lists. */
export function compatibleModelIds(config: Pick<AiConfig, 'OPENAI_MODELS'>): string[] {
  return (config.OPENAI_MODELS ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
}

/** Whether this process runs the ai.generate-model worker: always with the embedded queue unless told not to. */
export function runsWorker(config: Pick<AiConfig, 'RUN_WORKER' | 'REDIS_URL'>): boolean {
  return config.RUN_WORKER === 'true' || (config.RUN_WORKER === 'auto' && !config.REDIS_URL)
}
