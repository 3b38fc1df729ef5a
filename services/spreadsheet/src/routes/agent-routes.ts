import {
  AgentToolsBody,
  AgentToolsResponse,
  ApplyChangesetBody,
  ApplyChangesetResponse,
  ChangesetConflictBody,
  ChangesetParams,
  ChangesetResponse,
  ErrorBody,
  WorkbookParams,
} from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import type { FastifyReply } from 'fastify'
import { ChangesetRefusal } from '../errors.js'
import type { SpreadsheetServices } from './services.js'

const tags = ['agent']

/** A refusal that names cells or formulas answers with them in its body. */
async function refusing<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ChangesetRefusal) return reply.status(409).send(error.body())
    throw error
  }
}

/** The assistant's tools and its changesets: what the AI service calls with the user's token. */
export function agentRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { changesets } = services

  app.post(
    '/workbook/:id/agent-tools',
    {
      schema: {
        tags,
        summary: "Run one model turn's tool calls on the workbook; writes go into the request's changeset",
        description:
          'Calls run in order. A tool that cannot do what it is asked (unknown name, arguments failing its schema, a refused overwrite, an address that does not resolve) answers ok: false with the reason, never an error status. ' +
          'The first call that writes creates a changeset; send its id with the next turns. Nothing is applied to the workbook until POST /changesets/{id}/apply.',
        params: WorkbookParams,
        body: AgentToolsBody,
        response: { 200: AgentToolsResponse, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const answer = await changesets.runTools(request.params.id, currentUser(request), request.body)
      void reply.header('server-timing', `tools;dur=${answer.serviceMs}`)
      return answer
    },
  )

  app.get(
    '/changesets/:id',
    { schema: { tags, summary: 'A changeset: its cells before and after, structure, formats, charts, downstream effect and state', params: ChangesetParams, response: { 200: ChangesetResponse, ...errorResponses } } },
    async (request) => ({ success: true as const, changeset: await changesets.get(request.params.id, currentUser(request)) }),
  )

  app.post(
    '/changesets/:id/apply',
    {
      schema: {
        tags,
        summary: 'Apply a changeset as one change (one undo reverts it), recorded as an AI major version',
        description:
          '409 CHANGESET_CONFLICT names the cells that changed since the changeset was worked out; 409 APPROVAL_REQUIRED lists formulas that could reach the network, applied only with approve: true.',
        params: ChangesetParams,
        body: ApplyChangesetBody,
        response: { 200: ApplyChangesetResponse, 409: ChangesetConflictBody, ...errorResponses },
      },
    },
    async (request, reply) =>
      refusing(reply, async () => {
        const { changeset, change } = await changesets.apply(request.params.id, currentUser(request), request.body ?? {})
        return { success: true as const, changeset, change }
      }),
  )

  app.post(
    '/changesets/:id/discard',
    { schema: { tags, summary: 'Drop a changeset that was not applied', params: ChangesetParams, response: { 200: ChangesetResponse, 409: ErrorBody, ...errorResponses } } },
    async (request) => ({ success: true as const, changeset: await changesets.discard(request.params.id, currentUser(request)) }),
  )
}
