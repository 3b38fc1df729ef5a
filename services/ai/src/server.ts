import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadAiConfig, type AiConfig } from './config.js'
import { createAiService } from './service.js'

let config: AiConfig
try {
  config = loadAiConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await createAiService(config, { logger: createLogger('ai', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
