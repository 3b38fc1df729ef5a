import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadSpreadsheetConfig, type SpreadsheetConfig } from './config.js'
import { startSpreadsheetService } from './service.js'

let config: SpreadsheetConfig
try {
  config = loadSpreadsheetConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await startSpreadsheetService(config, process.env, { logger: createLogger('spreadsheet', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
