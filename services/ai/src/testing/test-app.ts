/** The ai app on throwaway embedded adapters, configured by env like the real service, with tokens for made-up users. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OAuth2Client } from 'google-auth-library'
import { createDocumentStore, createJobQueues, ensureSigningKeys, LocalTokenIssuer, LocalTokenVerifier, type DocumentStore, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildAiApp, type AiAppDependencies } from '../app.js'
import { loadAiConfig } from '../config.js'
import { modelRegistryFromConfig } from '../providers/model-registry.js'

const tokenOptions = { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 }

export interface AiTestApp {
  app: ServiceApp
  dir: string
  store: DocumentStore
  tokenFor(uid: string): Promise<string>
  close(): Promise<void>
}

export interface AiTestAppOptions extends Pick<AiAppDependencies, 'chatTools' | 'clock' | 'modelGenerator' | 'localAgentProvider'> {
  /** The service's environment (OPENAI_API_KEY, OPENAI_BASE_URL, AI_DAILY_TOKEN_LIMIT...). */
  env?: Record<string, string>
  /** Trust the tokens of the users service whose data folder this is (its signing keys); default keys of its own. */
  keysOf?: string
  logger?: Logger
  /** A bearer token Vertex AI requests carry instead of Application Default Credentials. */
  vertexToken?: string
}

export async function startAiTestApp(options: AiTestAppOptions = {}): Promise<AiTestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'finsheet-ai-'))
  const keysDir = options.keysOf ?? dir
  const config = loadAiConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...options.env })
  const issuer = new LocalTokenIssuer(await ensureSigningKeys(keysDir), tokenOptions)
  const store = await createDocumentStore(config, 'ai')
  const jobs = await createJobQueues(config)
  let vertexAuth: { authClient: OAuth2Client } | undefined
  if (options.vertexToken) {
    const authClient = new OAuth2Client()
    authClient.setCredentials({ access_token: options.vertexToken, expiry_date: Date.now() + 3_600_000 })
    vertexAuth = { authClient }
  }
  const app = await buildAiApp({
    verifier: new LocalTokenVerifier({ dataDir: keysDir }, tokenOptions),
    store,
    jobs,
    logger: options.logger ?? false,
    models: (logger) => modelRegistryFromConfig(config, { logger, vertexAuth, vertexRetry: { baseDelayMs: 50 } }),
    spreadsheetUrl: config.SPREADSHEET_URL,
    filesUrl: config.FILES_URL,
    dailyTokenLimit: config.AI_DAILY_TOKEN_LIMIT,
    agentDeadlineMs: config.AI_AGENT_DEADLINE_MS,
    agentTokenBudget: config.AI_AGENT_TOKEN_BUDGET,
    chatTools: options.chatTools,
    modelGenerator: options.modelGenerator,
    localAgentProvider: options.localAgentProvider,
    clock: options.clock,
  })
  await app.ready()
  return {
    app,
    dir,
    store,
    tokenFor: (uid) => issuer.issueSessionToken({ uid, email: `${uid}@example.com`, name: uid, anonymous: false }),
    async close() {
      await app.close()
      await store.close()
      await jobs.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The events of a server-sent event stream, in order. */
export function parseEventStream(text: string): Array<{ event: string; data: unknown }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n')
      return { event, data: JSON.parse(data) as unknown }
    })
}
