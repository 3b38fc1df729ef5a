import {
  ErrorBody,
  GetSessionQuery,
  LoadOrCreateSessionBody,
  SaveSessionBody,
  SaveSessionResponse,
  SessionResponse,
} from '@finsheet/contracts'
import { currentUser, errorResponses, type AuthUser, type ServiceApp } from '@finsheet/platform'
import { usersErrors } from '../errors.js'
import type { ProfileRepository } from '../repositories/profile-repository.js'
import type { SessionRepository } from '../repositories/session-repository.js'

/** A session belongs to its user alone: asking for anyone else's answers 404, as for none at all. */
function ownUid(user: AuthUser, asked: string | undefined): string {
  if (asked !== undefined && asked !== user.uid) throw usersErrors.sessionNotFound()
  return user.uid
}

export function sessionRoutes(app: ServiceApp, deps: { sessions: SessionRepository; profiles: ProfileRepository }) {
  const { sessions, profiles } = deps
  const tags = ['spreadsheet sessions']

  app.post(
    '/spreadsheet-session/load-or-create',
    {
      schema: {
        tags,
        summary: "Load the user's spreadsheet session, creating it on first use (role admin, defaultWorkbook with Sheet1)",
        body: LoadOrCreateSessionBody,
        response: { 200: SessionResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const body = request.body
      const uid = ownUid(user, body.uid)
      const profile = await profiles.get(uid)
      const session = await sessions.loadOrCreate({
        uid,
        name: body.name ?? user.name ?? profile?.fullName ?? null,
        email: body.email ?? user.email ?? profile?.email ?? null,
      })
      return { success: true, session }
    },
  )

  app.get(
    '/spreadsheet-session/current',
    { schema: { tags, summary: "The signed-in user's session", response: { 200: SessionResponse, ...errorResponses } } },
    async (request) => {
      const session = await sessions.get(currentUser(request).uid)
      if (!session) throw usersErrors.sessionNotFound()
      return { success: true, session }
    },
  )

  app.get(
    '/spreadsheet-session',
    {
      schema: {
        tags,
        summary: 'A session by user id; only the signed-in user’s own',
        querystring: GetSessionQuery,
        response: { 200: SessionResponse, ...errorResponses },
      },
    },
    async (request) => {
      const session = await sessions.get(ownUid(currentUser(request), request.query.userId))
      if (!session) throw usersErrors.sessionNotFound()
      return { success: true, session }
    },
  )

  app.post(
    '/spreadsheet-session',
    {
      schema: {
        tags,
        summary: 'Save the spreadsheet session; the user id comes as session.id or userId',
        body: SaveSessionBody,
        response: { 200: SaveSessionResponse, 413: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const asked = request.body.userId ?? request.body.session.id
      if (asked === undefined || asked.trim() === '') throw usersErrors.missingUserId()
      const uid = ownUid(user, asked)
      const session = await sessions.save(uid, request.body.session, { name: user.name, email: user.email })
      return { success: true, session }
    },
  )
}
