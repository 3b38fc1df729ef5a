import { SupportRequestBody, SupportRequestListResponse, SupportRequestResponse } from '@finsheet/contracts'
import { currentUser, errorResponses, type AuthUser, type ServiceApp } from '@finsheet/platform'
import { usersErrors } from '../errors.js'
import type { SupportRepository } from '../repositories/support-repository.js'

/** Whether a signed-in user is one of the support admins the configuration names by email. */
export function isSupportAdmin(user: AuthUser, adminEmails: ReadonlySet<string>): boolean {
  return !user.anonymous && user.email !== null && adminEmails.has(user.email.trim().toLowerCase())
}

/** Help & Support: any signed-in user sends a request; support admins list them. */
export function supportRoutes(app: ServiceApp, deps: { support: SupportRepository; adminEmails: ReadonlySet<string> }) {
  const tags = ['support']

  app.post(
    '/support-requests',
    {
      schema: {
        tags,
        summary: 'Send a Help & Support request (name, email, issue category, description), stored for the support admins',
        body: SupportRequestBody,
        response: { 201: SupportRequestResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body
      for (const field of ['name', 'description'] as const) if (body[field].trim() === '') throw usersErrors.blankField(field)
      const stored = await deps.support.add(currentUser(request).uid, body)
      return reply.status(201).send({ success: true as const, request: stored })
    },
  )

  app.get(
    '/support-requests',
    {
      schema: {
        tags,
        summary: 'The Help & Support requests, newest first (support admins only)',
        response: { 200: SupportRequestListResponse, ...errorResponses },
      },
    },
    async (request) => {
      if (!isSupportAdmin(currentUser(request), deps.adminEmails)) throw usersErrors.notSupportAdmin()
      return { success: true as const, requests: await deps.support.list() }
    },
  )
}
