import type { Logger } from '@finsheet/platform'

/** The level and logger handed to the OpenAI and Anthropic SDKs: their retries and failures in our log. */
export interface SdkLogging {
  logLevel: 'off' | 'warn' | 'debug'
  logger?: { error: LogFn; warn: LogFn; info: LogFn; debug: LogFn }
}
type LogFn = (message: string, ...rest: unknown[]) => void

/**
 * The SDKs' info lines (one per request and per retry) go to debug, their warnings and errors stay.
 * Their debug output redacts authorization and api-key headers; it is only switched on when the
 * service itself logs at debug.
 */
export function sdkLogging(logger: Logger | undefined, component: string): SdkLogging {
  if (!logger) return { logLevel: 'off' }
  const child = logger.child({ component })
  const line = (level: 'debug' | 'warn' | 'error') => (message: string, ...rest: unknown[]) =>
    rest.length > 0 ? child[level]({ details: rest }, message) : child[level](message)
  return {
    logLevel: child.level === 'debug' || child.level === 'trace' ? 'debug' : 'warn',
    logger: { error: line('error'), warn: line('warn'), info: line('debug'), debug: line('debug') },
  }
}
