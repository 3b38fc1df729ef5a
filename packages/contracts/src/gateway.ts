import { Type, type Static } from 'typebox'
import type { SERVICE_AREAS } from './constants.js'

export type ServiceArea = (typeof SERVICE_AREAS)[number]

export const ServiceHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  latencyMs: Type.Number(),
  error: Type.Optional(Type.String()),
})
export type ServiceHealth = Static<typeof ServiceHealth>

export const GatewayHealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  service: Type.Literal('gateway'),
  uptimeSeconds: Type.Number(),
  services: Type.Record(Type.String(), ServiceHealth),
})
export type GatewayHealthResponse = Static<typeof GatewayHealthResponse>
