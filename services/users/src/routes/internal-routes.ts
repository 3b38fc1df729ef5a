import { ErrorBody, INTERNAL_USER_TOKEN_PATH, UserTokenBody, UserTokenResponse } from '@finsheet/contracts'
import { bearerTokenFrom, serviceAuthErrors, USER_TOKEN_AUDIENCE, verifyServiceToken, type ServiceApp } from '@finsheet/platform'
import type { IdentityProvider } from '../identity/identity-provider.js'

/**
 * Routes for other Finsheet services only. They carry a service token, not a user's, and the
 * gateway never forwards /internal paths, so no browser reaches them.
 */
export function internalRoutes(app: ServiceApp, deps: { identity: IdentityProvider; serviceSecret: Uint8Array }) {
  app.post(
    INTERNAL_USER_TOKEN_PATH,
    {
      // Not a user's bearer token: the service token is checked below.
      config: { public: true },
      schema: {
        tags: ['internal'],
        summary: 'A short-lived token for a user, for a worker running that user\'s job (service token required)',
        body: UserTokenBody,
        response: { 200: UserTokenResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      let caller: { service: string; userId: string }
      try {
        caller = await verifyServiceToken(deps.serviceSecret, bearerTokenFrom(request.headers.authorization), USER_TOKEN_AUDIENCE)
      } catch {
        throw serviceAuthErrors.unauthenticated()
      }
      // The service token names the user it was made for; it cannot be spent on another.
      if (caller.userId !== request.body.userId) throw serviceAuthErrors.unauthenticated()
      const issued = await deps.identity.issueDelegatedToken(request.body.userId, caller.service)
      request.log.info({ service: caller.service, userId: caller.userId }, 'issued a user token to a service')
      return issued
    },
  )
}
