/** A small typed-enough client over app.inject for the service's tests. */
import type { ServiceApp } from '@finsheet/platform'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
  raw: Buffer
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
}

export type Call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<Answer>

export function clientFor(app: ServiceApp, token: string): Call {
  return async (method, url, payload) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    })
    const type = String(response.headers['content-type'] ?? '')
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      raw: response.rawPayload,
      json: type.includes('json') && response.body !== '' ? response.json() : undefined,
    }
  }
}
