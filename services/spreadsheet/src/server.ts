import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadSpreadsheetConfig, type SpreadsheetConfig } from './config.js'
import { createSpreadsheetService } from './service.js'

let config: SpreadsheetConfig
try {
  config = loadSpreadsheetConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await createSpreadsheetService(config, { logger: createLogger('spreadsheet', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
