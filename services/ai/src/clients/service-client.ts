/**
 * Calls to the other services during a request: with the user's own token (so the other service
 * checks ownership itself), and answers checked against the contract schema before they are used.
 */
import { Value } from 'typebox/value'
import type { Static, TSchema } from 'typebox'
import { AppError } from '@finsheet/platform'
import { aiErrors } from '../errors.js'

const SERVICE_TIMEOUT_MS = 15_000

export interface ServiceCall<Schema extends TSchema> {
  service: 'spreadsheet' | 'files'
  baseUrl: string
  method: 'GET' | 'POST'
  path: string
  token: string
  body?: unknown
  /** The schema of a successful answer. */
  answer: Schema
  /** What a 404 means here (the workbook or file is missing or someone else's). */
  notFound: () => AppError
  signal?: AbortSignal
}

export async function callService<Schema extends TSchema>(call: ServiceCall<Schema>): Promise<Static<Schema>> {
  let response: Response
  try {
    response = await fetch(new URL(call.path, call.baseUrl), {
      method: call.method,
      headers: { authorization: `Bearer ${call.token}`, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: call.signal ? AbortSignal.any([call.signal, AbortSignal.timeout(SERVICE_TIMEOUT_MS)]) : AbortSignal.timeout(SERVICE_TIMEOUT_MS),
    })
  } catch {
    throw aiErrors.serviceUnavailable(call.service)
  }
  let answer: unknown
  try {
    answer = await response.json()
  } catch {
    throw response.status >= 500 ? aiErrors.serviceUnavailable(call.service) : aiErrors.serviceAnsweredBadly(call.service)
  }
  if (response.status === 404) throw call.notFound()
  if (response.status >= 500) throw aiErrors.serviceUnavailable(call.service)
  if (!response.ok) {
    // The other service's 4xx (a sheet that does not exist, an invalid address) is the user's to fix: passed on.
    const error = (answer as { error?: { code?: unknown; message?: unknown } }).error
    if (typeof error?.code === 'string' && typeof error.message === 'string') throw new AppError(error.code, response.status, error.message)
    throw aiErrors.serviceAnsweredBadly(call.service)
  }
  if (!Value.Check(call.answer, answer)) throw aiErrors.serviceAnsweredBadly(call.service)
  return answer as Static<Schema>
}
