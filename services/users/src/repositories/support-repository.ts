import { randomUUID } from 'node:crypto'
import type { DocumentStore } from '@finsheet/platform'
import { SUPPORT_REQUEST_LIST_LIMIT, type SupportRequest, type SupportRequestBody } from '@finsheet/contracts'

/** Help & Support requests, newest first for the admins who answer them. */
export function createSupportRepository(store: DocumentStore) {
  const requests = () => store.collection<SupportRequest>('support_requests', { indexes: [{ fields: ['createdAt'] }] })
  // Two requests sent in one millisecond still list in the order they came.
  let lastCreated = 0
  return {
    async add(uid: string, body: SupportRequestBody, at = new Date()): Promise<SupportRequest> {
      lastCreated = Math.max(at.getTime(), lastCreated + 1)
      const now = new Date(lastCreated)
      const request: SupportRequest = {
        id: randomUUID(),
        uid,
        name: body.name.trim(),
        email: body.email.trim(),
        category: body.category,
        description: body.description.trim(),
        createdAt: now.toISOString(),
      }
      await requests().insert(request)
      return request
    },
    list(): Promise<SupportRequest[]> {
      return requests().find({}, { sort: [['createdAt', -1]], limit: SUPPORT_REQUEST_LIST_LIMIT })
    },
  }
}
export type SupportRepository = ReturnType<typeof createSupportRepository>
