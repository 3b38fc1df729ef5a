import { Value } from 'typebox/value'
import {
  GatewayHealthResponse,
  HealthResponse,
  LIVENESS_PATH,
  READINESS_PATH,
  SERVICE_AREAS,
  StatusResponse,
  type AdapterStatus,
  type ServiceArea,
  type ServiceHealth,
} from '@finsheet/contracts'
import type { ServiceApp, StatusProbe } from '@finsheet/platform'

export interface HealthRoutesDependencies {
  services: Record<ServiceArea, string>
  /** How long /health waits for each service. */
  timeoutMs: number
  /** The gateway's own dependencies, which readiness asks. */
  probes: StatusProbe[]
}

/**
 * Three answers for three questions. /health/live: is the gateway's process up (an orchestrator
 * restarts it when not). /health/ready: can it serve, that is do its own dependencies answer; a
 * service being down is not the gateway's fault, so it stays ready and answers that area with 503.
 * /health: how is everything, every service included, for people and dashboards.
 */
export function healthRoutes(app: ServiceApp, deps: HealthRoutesDependencies): void {
  const startedAt = new Date()
  const uptimeSeconds = () => Math.round((Date.now() - startedAt.getTime()) / 100) / 10

  app.get(LIVENESS_PATH, { schema: { response: { 200: HealthResponse } } }, async () => ({ status: 'ok' as const, service: 'gateway', uptimeSeconds: uptimeSeconds() }))

  app.get(READINESS_PATH, { schema: { response: { 200: StatusResponse, 503: StatusResponse } } }, async (_request, reply) => {
    const adapters: AdapterStatus[] = await Promise.all(
      deps.probes.map(async (probe) => {
        try {
          await Promise.race([probe.check(), new Promise((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${deps.timeoutMs} ms`)), deps.timeoutMs).unref())])
          return { port: probe.port, adapter: probe.adapter, ok: true }
        } catch (error) {
          return { port: probe.port, adapter: probe.adapter, ok: false, detail: (error as Error).message.slice(0, 200) }
        }
      }),
    )
    const ready = adapters.every((adapter) => adapter.ok)
    return reply.status(ready ? 200 : 503).send({
      service: 'gateway',
      version: '0.1.0',
      status: ready ? 'ok' : 'degraded',
      uptimeSeconds: uptimeSeconds(),
      startedAt: startedAt.toISOString(),
      adapters,
    })
  })

  app.get('/health', { schema: { response: { 200: GatewayHealthResponse, 503: GatewayHealthResponse } } }, async (_request, reply) => {
    const entries = await Promise.all(SERVICE_AREAS.map(async (area) => [area, await checkService(deps.services[area], deps.timeoutMs)] as const))
    const services = Object.fromEntries(entries) as Record<string, ServiceHealth>
    const healthy = entries.every(([, health]) => health.status === 'ok')
    return reply.status(healthy ? 200 : 503).send({ status: healthy ? 'ok' : 'degraded', service: 'gateway', uptimeSeconds: uptimeSeconds(), services })
  })
}

/** A service is up when its /health answers 200 with the health answer its contract describes. */
async function checkService(baseUrl: string, timeoutMs: number): Promise<ServiceHealth> {
  const started = performance.now()
  try {
    const response = await fetch(new URL('/health', baseUrl), { signal: AbortSignal.timeout(timeoutMs) })
    const body: unknown = await response.json().catch(() => null)
    const latencyMs = Math.round(performance.now() - started)
    if (!response.ok) return { status: 'down', latencyMs, error: `answered ${response.status}` }
    if (!Value.Check(HealthResponse, body)) return { status: 'down', latencyMs, error: 'answered something other than a health report' }
    return body.status === 'ok' ? { status: 'ok', latencyMs } : { status: 'down', latencyMs, error: `reports ${body.status}` }
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started)
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable'
    return { status: 'down', latencyMs, error: reason }
  }
}
