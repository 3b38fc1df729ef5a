import { PerformanceMetricsResponse } from '@finsheet/contracts'
import { errorResponses, type ServiceApp } from '@finsheet/platform'
import type { SpreadsheetServices } from './services.js'

export function metricsRoutes(app: ServiceApp, services: SpreadsheetServices) {
  app.get(
    '/metrics/performance',
    {
      schema: {
        tags: ['metrics'],
        summary: "This replica's request counts and latency percentiles per route, recalculation and write times, and engine-cache hits",
        response: { 200: PerformanceMetricsResponse, ...errorResponses },
      },
    },
    async () => services.metrics.report(services.cache.stats(), services.workbooks.commitStats()),
  )
}
