import { AppError } from '../errors/app-error.js'

/** The identity a verified bearer token carries; set on `request.user` by the auth plugin. */
export interface AuthUser {
  uid: string
  email: string | null
  name: string | null
  anonymous: boolean
}

export interface TokenVerifier {
  readonly kind: 'local' | 'firebase'
  /** Resolves the token's user or throws an AppError with status 401. */
  verify(token: string): Promise<AuthUser>
}

export const authErrors = {
  missingToken: () => new AppError('UNAUTHENTICATED', 401, 'Missing bearer token'),
  malformedHeader: () => new AppError('UNAUTHENTICATED', 401, 'Authorization header must be "Bearer <token>"'),
  expiredToken: () => new AppError('TOKEN_EXPIRED', 401, 'Token expired'),
  invalidToken: () => new AppError('INVALID_TOKEN', 401, 'Invalid token'),
}

/** Reads the token from an Authorization header value, or throws a 401 AppError. */
export function bearerTokenFrom(header: string | undefined): string {
  if (header === undefined || header === '') throw authErrors.missingToken()
  const match = /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/.exec(header.trim())
  if (!match) throw authErrors.malformedHeader()
  return match[1]
}
