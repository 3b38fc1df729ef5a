import * as hdr from 'hdr-histogram-js'
import type { LatencySummary, PerformanceMetricsResponse } from '@finsheet/contracts'
import type { EngineCacheStats } from '../engine/engine-cache.js'

/** Latencies in microseconds, up to an hour, to 3 significant digits. */
function histogram(): hdr.Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 })
}

function summarize(h: hdr.Histogram): LatencySummary {
  const ms = (micros: number) => Math.round(micros) / 1000
  if (h.totalCount === 0) return { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 }
  return {
    count: h.totalCount,
    mean: ms(h.mean),
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  }
}

const micros = (ms: number) => Math.max(1, Math.round(ms * 1000))

/** Figures of this replica since it started: requests per route, recalculation, writes, loads. */
export class PerformanceMetrics {
  private readonly startedAt = new Date()
  private readonly routes = new Map<string, { method: string; route: string; count: number; errors: number; latency: hdr.Histogram }>()
  private readonly recalculation = histogram()
  private readonly writes = histogram()
  private readonly loads = histogram()
  private cellsChanged = 0
  private versionsCreated = 0
  private autoSaves = 0

  recordRequest(method: string, route: string, statusCode: number, elapsedMs: number): void {
    const key = `${method} ${route}`
    let entry = this.routes.get(key)
    if (!entry) this.routes.set(key, (entry = { method, route, count: 0, errors: 0, latency: histogram() }))
    entry.count++
    if (statusCode >= 400) entry.errors++
    entry.latency.recordValue(micros(elapsedMs))
  }

  recordRecalculation(elapsedMs: number, cellsChanged: number): void {
    this.recalculation.recordValue(micros(elapsedMs))
    this.cellsChanged += cellsChanged
  }

  recordWrite(elapsedMs: number): void {
    this.writes.recordValue(micros(elapsedMs))
  }

  recordLoad(elapsedMs: number): void {
    this.loads.recordValue(micros(elapsedMs))
  }

  recordVersion(type: string): void {
    this.versionsCreated++
    if (type !== 'major') this.autoSaves++
  }

  report(cache: EngineCacheStats, storage: { commits: number; writes: number; refused: number } = { commits: 0, writes: 0, refused: 0 }): PerformanceMetricsResponse {
    const routes = [...this.routes.values()]
      .map((entry) => ({ method: entry.method, route: entry.route, count: entry.count, errors: entry.errors, latencyMs: summarize(entry.latency) }))
      .sort((a, b) => b.count - a.count)
    const lookups = cache.hits + cache.misses + cache.staleReloads
    return {
      success: true,
      since: this.startedAt.toISOString(),
      uptimeSeconds: Math.round((Date.now() - this.startedAt.getTime()) / 100) / 10,
      requests: {
        total: routes.reduce((sum, route) => sum + route.count, 0),
        errors: routes.reduce((sum, route) => sum + route.errors, 0),
        routes,
      },
      recalculation: { ...summarize(this.recalculation), cellsChanged: this.cellsChanged },
      writes: summarize(this.writes),
      engineLoads: summarize(this.loads),
      storage: {
        commits: storage.commits,
        changes: storage.writes,
        changesPerCommit: storage.commits === 0 ? 0 : Math.round((storage.writes / storage.commits) * 100) / 100,
        conflicts: storage.refused,
      },
      engineCache: { ...cache, hitRate: lookups === 0 ? 0 : Math.round((cache.hits / lookups) * 1000) / 1000 },
      versions: { created: this.versionsCreated, autoSaves: this.autoSaves },
    }
  }
}
