import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadFilesConfig, type FilesConfig } from './config.js'
import { createFilesService } from './service.js'

let config: FilesConfig
try {
  config = loadFilesConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await createFilesService(config, { logger: createLogger('files', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
