import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadVectordbConfig, type VectordbConfig } from './config.js'
import { createVectordbService } from './service.js'

let config: VectordbConfig
try {
  config = loadVectordbConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await createVectordbService(config, { logger: createLogger('vectordb', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
