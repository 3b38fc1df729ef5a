import { pino, type Logger, type LoggerOptions } from 'pino'

/**
 * The pino options every service uses; tokens and cookies never reach the log. With no service
 * name the logger is a root whose children each name theirs (the all-in-one process).
 */
export function loggerOptions(service: string | null, level = 'info'): LoggerOptions {
  return {
    level,
    base: service ? { service } : { pid: process.pid },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.password'], censor: '[redacted]' },
  }
}

export function createLogger(service: string | null, level = 'info'): Logger {
  return pino(loggerOptions(service, level))
}

export type { Logger }
