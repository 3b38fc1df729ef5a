import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { bearerTokenFrom, type AuthUser, type TokenVerifier } from './token-verifier.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified user; null only on routes marked `config: { public: true }`. */
    user: AuthUser | null
  }
  interface FastifyContextConfig {
    /** Open route: no bearer token required (health, status, docs, sign-up and sign-in). */
    public?: boolean
  }
}

export interface AuthPluginOptions {
  verifier: TokenVerifier
}

/**
 * Verifies the bearer token on every route not marked public. Identity comes from the token
 * alone: headers such as x-user-id are never read.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app, { verifier }) => {
    app.decorateRequest('user', null)
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return
      request.user = await verifier.verify(bearerTokenFrom(request.headers.authorization))
    })
  },
  { name: 'finsheet-auth' },
)

/** The verified user of a protected route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error('currentUser() called on a public route')
  return request.user
}
