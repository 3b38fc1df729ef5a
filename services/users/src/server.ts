import { closeOnSignals, createLogger, exitOnConfigError } from '@finsheet/platform'
import { loadUsersConfig, type UsersConfig } from './config.js'
import { createUsersService } from './service.js'

let config: UsersConfig
try {
  config = loadUsersConfig()
} catch (error) {
  exitOnConfigError(error)
}
const app = await createUsersService(config, { logger: createLogger('users', config.LOG_LEVEL) })
closeOnSignals(app)
await app.listen({ port: config.PORT, host: config.HOST })
