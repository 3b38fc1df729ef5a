/**
 * Which models the service offers and who serves each: the hosted providers enabled by their
 * environment, the models of an OpenAI-compatible server, and the offline `local` assistant.
 */
import { AI_PROVIDERS, DEFAULT_AI_MODEL, HOSTED_MODELS, LOCAL_MODEL_OPTION, type AiModelOption, type AiProvider } from '@finsheet/contracts'
import type { Logger } from '@finsheet/platform'
import { compatibleModelIds, type AiConfig } from '../config.js'
import { aiErrors } from '../errors.js'
import { createAnthropicProvider } from './anthropic-provider.js'
import type { ChatProvider } from './conversation.js'
import { createOpenAiProvider } from './openai-provider.js'
import type { Fetch } from './provider-fetch.js'
import { createVertexProvider, type VertexProviderOptions } from './vertex-provider.js'

/** A model the request may use: a provider's, or the offline assistant. */
export type ResolvedModel = { kind: 'local'; option: AiModelOption } | { kind: 'remote'; option: AiModelOption; provider: ChatProvider }

export interface ModelRegistry {
  /** Every model, grouped by provider in picker order; unconfigured ones with `available: false` and why. */
  list(): AiModelOption[]
  /** DEFAULT_AI_MODEL when OpenAI is configured, else the first available model (at worst `local`). */
  readonly defaultModel: string
  /** The model a request names (default the default model); 400 for an unknown or unconfigured one. */
  resolve(model: string | undefined): ResolvedModel
}

/** A model and what serves it: a provider, the offline assistant, or the reason nothing can. */
export interface ProviderEntry {
  option: Omit<AiModelOption, 'available' | 'unavailableReason'>
  provider: ChatProvider | 'local' | { unavailable: string }
}

const isUnavailable = (entry: ProviderEntry): entry is ProviderEntry & { provider: { unavailable: string } } =>
  typeof entry.provider === 'object' && 'unavailable' in entry.provider

export function createModelRegistry(entries: readonly ProviderEntry[]): ModelRegistry {
  const order = (provider: AiProvider) => AI_PROVIDERS.indexOf(provider)
  // A stable sort: within a provider the models keep their order (premium, standard, fast).
  const sorted = [...entries, { option: LOCAL_MODEL_OPTION, provider: 'local' as const }].sort((a, b) => order(a.option.provider) - order(b.option.provider))
  // Two providers listing one id (a compatible server serving "gpt-4o"): the one that can answer is kept.
  const chosen = new Map<string, ProviderEntry>()
  for (const entry of sorted) {
    const existing = chosen.get(entry.option.value)
    if (!existing || (isUnavailable(existing) && !isUnavailable(entry))) chosen.set(entry.option.value, entry)
  }
  const kept = sorted.filter((entry) => chosen.get(entry.option.value) === entry)
  const options: AiModelOption[] = kept.map((entry) =>
    isUnavailable(entry) ? { ...entry.option, available: false, unavailableReason: entry.provider.unavailable } : { ...entry.option, available: true },
  )
  const available = options.filter((option) => option.available).map((option) => option.value)
  const defaultModel = available.includes(DEFAULT_AI_MODEL) ? DEFAULT_AI_MODEL : available[0]

  return {
    list: () => options.map((option) => ({ ...option })),
    defaultModel,
    resolve(model) {
      const value = model ?? defaultModel
      const entry = chosen.get(value)
      if (!entry) throw aiErrors.unknownModel(value, available)
      const option = options[kept.indexOf(entry)]
      if (entry.provider === 'local') return { kind: 'local', option }
      if ('unavailable' in entry.provider) throw aiErrors.modelNotConfigured(value, entry.provider.unavailable)
      return { kind: 'remote', option, provider: entry.provider }
    },
  }
}

export interface ProviderOverrides {
  logger?: Logger
  /** Credentials for Vertex AI other than Application Default Credentials (tests). */
  vertexAuth?: VertexProviderOptions['googleAuthOptions']
  vertexRetry?: VertexProviderOptions['retry']
  fetch?: Fetch
}

/** The registry the environment describes. */
export function modelRegistryFromConfig(config: AiConfig, overrides: ProviderOverrides = {}): ModelRegistry {
  const timeoutMs = config.AI_REQUEST_TIMEOUT_MS
  const compatibleIds = compatibleModelIds(config)
  const servesCompatible = compatibleIds.length > 0

  const openai: ChatProvider | { unavailable: string } = servesCompatible
    ? { unavailable: 'OPENAI_BASE_URL points at an OpenAI-compatible server (OPENAI_MODELS); OpenAI’s own models need OPENAI_API_KEY without OPENAI_MODELS' }
    : config.OPENAI_API_KEY
      ? createOpenAiProvider({ provider: 'openai', apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, timeoutMs, logger: overrides.logger, fetch: overrides.fetch })
      : { unavailable: 'set OPENAI_API_KEY to use OpenAI models' }
  const anthropic: ChatProvider | { unavailable: string } = config.ANTHROPIC_API_KEY
    ? createAnthropicProvider({ apiKey: config.ANTHROPIC_API_KEY, baseUrl: config.ANTHROPIC_BASE_URL, timeoutMs, logger: overrides.logger, fetch: overrides.fetch })
    : { unavailable: 'set ANTHROPIC_API_KEY to use Anthropic models' }
  const vertex: ChatProvider | { unavailable: string } = config.GOOGLE_CLOUD_PROJECT
    ? createVertexProvider({
        project: config.GOOGLE_CLOUD_PROJECT,
        location: config.GOOGLE_CLOUD_LOCATION,
        baseUrl: config.GOOGLE_VERTEX_BASE_URL,
        timeoutMs,
        googleAuthOptions: overrides.vertexAuth,
        retry: overrides.vertexRetry,
        fetch: overrides.fetch,
      })
    : { unavailable: 'set GOOGLE_CLOUD_PROJECT (with application default credentials) to use Vertex AI' }
  const byProvider = { openai, anthropic, vertex } as const

  const entries: ProviderEntry[] = HOSTED_MODELS.map((option) => ({ option, provider: byProvider[option.provider as keyof typeof byProvider] }))
  if (servesCompatible) {
    const compatible = createOpenAiProvider({
      provider: 'openai-compatible',
      // Local servers take any key; the SDK insists on one.
      apiKey: config.OPENAI_API_KEY ?? 'no-key',
      baseUrl: config.OPENAI_BASE_URL,
      timeoutMs,
      logger: overrides.logger,
      fetch: overrides.fetch,
    })
    for (const id of compatibleIds) {
      entries.push({
        option: { value: id, label: id, provider: 'openai-compatible', tier: 'standard', description: 'Served by the OpenAI-compatible server at OPENAI_BASE_URL' },
        provider: compatible,
      })
    }
  }
  return createModelRegistry(entries)
}
