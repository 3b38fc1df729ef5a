import { pino, type Logger, type LoggerOptions } from 'pino'

/** The pino options every service uses; tokens and cookies never reach the log. */
export function loggerOptions(service: string, level = 'info'): LoggerOptions {
  return {
    level,
    base: { service },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.password'], censor: '[redacted]' },
  }
}

export function createLogger(service: string, level = 'info'): Logger {
  return pino(loggerOptions(service, level))
}

export type { Logger }
