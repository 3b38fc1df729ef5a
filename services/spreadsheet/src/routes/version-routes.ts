import {
  CompareVersionsQuery,
  CompareVersionsResponse,
  ErrorBody,
  ListVersionsQuery,
  ListVersionsResponse,
  RestoreVersionResponse,
  SaveVersionBody,
  UndoRedoBody,
  VersionParams,
  VersionResponse,
  WorkbookParams,
} from '@finsheet/contracts'
import { currentUser, errorResponses, type ServiceApp } from '@finsheet/platform'
import { toVersionRecord } from '../workbooks/version-service.js'
import type { SpreadsheetServices } from './services.js'
import { toChangeResponse } from './responses.js'

const tags = ['versions']

export function versionRoutes(app: ServiceApp, services: SpreadsheetServices) {
  const { workbooks, versions } = services

  app.get(
    '/versions',
    {
      schema: {
        tags,
        summary: "Versions of all the user's workbooks, newest first, with search, type and workbook filters (spec 1, Version Control)",
        querystring: ListVersionsQuery,
        response: { 200: ListVersionsResponse, ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await versions.list(currentUser(request), request.query)) }),
  )

  app.get(
    '/workbook/:id/versions',
    {
      schema: {
        tags,
        summary: "One workbook's versions, newest first, with search and type filters",
        params: WorkbookParams,
        querystring: ListVersionsQuery,
        response: { 200: ListVersionsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const workbook = await workbooks.requireWorkbook(request.params.id, user)
      return { success: true as const, ...(await versions.list(user, request.query, workbook.id)) }
    },
  )

  app.post(
    '/workbook/:id/save',
    {
      schema: {
        tags,
        summary: 'Save a major version now',
        params: WorkbookParams,
        body: SaveVersionBody,
        response: { 201: VersionResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const workbook = await workbooks.requireWorkbook(request.params.id, user)
      const version = await versions.save(workbook.id, user, { message: request.body.message, tags: request.body.tags })
      return reply.status(201).send({ success: true as const, version: toVersionRecord(version, version.number) })
    },
  )

  app.get(
    '/workbook/:id/versions/compare',
    {
      schema: {
        tags,
        summary: "Cell-by-cell differences between two versions ('current' for the workbook now): added, removed, changed inputs and values",
        params: WorkbookParams,
        querystring: CompareVersionsQuery,
        response: { 200: CompareVersionsResponse, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await versions.compare(request.params.id, currentUser(request), request.query.from, request.query.to, request.query.limit ?? 5000)),
    }),
  )

  app.get(
    '/workbook/:id/versions/:versionId',
    { schema: { tags, summary: 'One version', params: VersionParams, response: { 200: VersionResponse, ...errorResponses } } },
    async (request) => ({ success: true as const, version: await versions.getVersion(request.params.id, request.params.versionId, currentUser(request)) }),
  )

  app.post(
    '/workbook/:id/versions/:versionId/restore',
    {
      schema: {
        tags,
        summary: 'Restore a version: one undoable change that becomes a new major version',
        params: VersionParams,
        body: UndoRedoBody,
        response: { 200: RestoreVersionResponse, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request)
      const { outcome, version, restored } = await versions.restore(request.params.id, request.params.versionId, user, request.body.revision)
      return {
        ...toChangeResponse(outcome),
        version: toVersionRecord(version, version.number),
        restoredFrom: toVersionRecord(restored, version.number, version.fileName),
      }
    },
  )
}
