import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'
import type { HELP_CATEGORIES} from './constants.js';
import { MAX_SUPPORT_DESCRIPTION_LENGTH } from './constants.js'

/*
 * Help & Support: a signed-in user's request, stored by the users service and listed for the people
 * its configuration names as support admins. Paths are relative to /api/users.
 */

export type HelpCategory = (typeof HELP_CATEGORIES)[number]

/** POST /support-requests. Every field is required and not blank. */
export const SupportRequestBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }),
  category: Type.Union([
    Type.Literal('Technical Issue'),
    Type.Literal('Account Management'),
    Type.Literal('Feature Request'),
    Type.Literal('Billing Query'),
    Type.Literal('Other'),
  ]),
  description: Type.String({ minLength: 1, maxLength: MAX_SUPPORT_DESCRIPTION_LENGTH, pattern: '\\S' }),
})
export type SupportRequestBody = Static<typeof SupportRequestBody>

export const SupportRequest = Type.Object({
  id: Type.String(),
  /** The signed-in user who sent it. */
  uid: Type.String(),
  name: Type.String(),
  email: Type.String(),
  category: Type.String(),
  description: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
})
export type SupportRequest = Static<typeof SupportRequest>

export const SupportRequestResponse = Type.Object({ success: Type.Literal(true), request: SupportRequest })
export type SupportRequestResponse = Static<typeof SupportRequestResponse>

export const SupportRequestListResponse = Type.Object({ success: Type.Literal(true), requests: Type.Array(SupportRequest) })
export type SupportRequestListResponse = Static<typeof SupportRequestListResponse>
