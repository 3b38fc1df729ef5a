import { describe, expect, it } from 'vitest'
import { ConfigError } from '@finsheet/platform'
import { loadAiConfig } from '../config.js'
import { modelRegistryFromConfig } from './model-registry.js'

const registry = (env: Record<string, string>) => modelRegistryFromConfig(loadAiConfig({ DATA_DIR: '/nowhere', ...env }))
const availableOf = (env: Record<string, string>) =>
  registry(env)
    .list()
    .filter((option) => option.available)
    .map((option) => option.value)

describe('model registry from the environment', () => {
  it('offers only the offline assistant when nothing is configured, listing the rest with the variable to set', () => {
    const models = registry({})
    expect(models.defaultModel).toBe('local')
    expect(availableOf({})).toEqual(['local'])
    const reasons = new Set(models.list().map((option) => option.unavailableReason))
    expect(reasons).toEqual(new Set(['set ANTHROPIC_API_KEY to use Anthropic models', 'set OPENAI_API_KEY to use OpenAI models', 'set GOOGLE_CLOUD_PROJECT (with application default credentials) to use Vertex AI', undefined]))
    expect(models.list().map((option) => option.provider)).toEqual(['anthropic', 'anthropic', 'anthropic', 'openai', 'openai', 'openai', 'vertex', 'vertex', 'vertex', 'local'])
  })

  it('defaults to gpt-4o with OpenAI, else to the first available model in provider order', () => {
    expect(registry({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' }).defaultModel).toBe('gpt-4o')
    expect(registry({ ANTHROPIC_API_KEY: 'k', GOOGLE_CLOUD_PROJECT: 'my-project' }).defaultModel).toBe('claude-opus-4-6')
    expect(registry({ GOOGLE_CLOUD_PROJECT: 'my-project' }).defaultModel).toBe('gemini-2.5-pro')
    expect(registry({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODELS: 'llama3' }).defaultModel).toBe('llama3')
  })

  it('resolves a model to its provider, and refuses unknown and unconfigured ones with 400', () => {
    const models = registry({ ANTHROPIC_API_KEY: 'k' })
    const resolved = models.resolve('claude-haiku-4-5')
    expect(resolved.kind === 'remote' && resolved.provider.provider).toBe('anthropic')
    expect(models.resolve(undefined).option.value).toBe('claude-opus-4-6')
    expect(models.resolve('local').kind).toBe('local')
    expect(() => models.resolve('gpt-4o')).toThrow(expect.objectContaining({ statusCode: 400, code: 'MODEL_NOT_CONFIGURED', message: 'The model gpt-4o is not configured: set OPENAI_API_KEY to use OpenAI models' }))
    expect(() => models.resolve('claude-9')).toThrow(
      expect.objectContaining({ statusCode: 400, code: 'UNKNOWN_MODEL', message: 'Unknown model "claude-9". Available models: claude-opus-4-6, claude-sonnet-4-6, claude-haiku-4-5, local' }),
    )
  })

  it('keeps one entry per id when a compatible server serves a hosted model’s id', () => {
    const models = registry({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODELS: 'gpt-4o,mistral-7b' })
    const gpt = models.list().filter((option) => option.value === 'gpt-4o')
    expect(gpt).toEqual([expect.objectContaining({ provider: 'openai-compatible', available: true })])
    expect(models.defaultModel).toBe('gpt-4o')
  })
})

describe('loadAiConfig', () => {
  it('names what is wrong and never shows a key', () => {
    expect(() => loadAiConfig({ OPENAI_MODELS: 'llama3' })).toThrow(ConfigError)
    expect(() => loadAiConfig({ OPENAI_MODELS: 'llama3' })).toThrow(/OPENAI_MODELS needs OPENAI_BASE_URL/)
    expect(() => loadAiConfig({ OPENAI_BASE_URL: 'not a url' })).toThrow(/OPENAI_BASE_URL/)
    expect(() => loadAiConfig({ AI_DAILY_TOKEN_LIMIT: '0' })).toThrow(/AI_DAILY_TOKEN_LIMIT/)
    try {
      loadAiConfig({ OPENAI_API_KEY: 'sk-secret-value', AI_REQUEST_TIMEOUT_MS: 'soon' })
    } catch (error) {
      expect((error as Error).message).toMatch(/AI_REQUEST_TIMEOUT_MS/)
      expect((error as Error).message).not.toContain('sk-secret-value')
    }
    expect(loadAiConfig({})).toMatchObject({ AI_REQUEST_TIMEOUT_MS: 60_000, GOOGLE_CLOUD_LOCATION: 'us-central1', SPREADSHEET_URL: 'http://127.0.0.1:3002' })
  })
})
