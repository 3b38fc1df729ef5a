import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadGatewayConfig, type GatewayConfig } from './config.js'
import { createGatewayService } from './service.js'

let config: GatewayConfig
try {
  config = loadGatewayConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await createGatewayService(config, { logger: createLogger('gateway', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
