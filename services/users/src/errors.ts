import { MISSING_FIELDS_MESSAGE, PASSWORD_TOO_SHORT_MESSAGE, PASSWORD_TOO_WEAK_CODE, SIGN_IN_LOCKED_CODE, signInLockedMessage } from '@finsheet/contracts'
import { AppError } from '@finsheet/platform'

export const usersErrors = {
  missingFields: () => new AppError('MISSING_FIELDS', 400, MISSING_FIELDS_MESSAGE),
  invalidEmail: () => new AppError('INVALID_EMAIL', 400, 'Please enter a valid email address'),
  passwordTooShort: () => new AppError('PASSWORD_TOO_SHORT', 400, PASSWORD_TOO_SHORT_MESSAGE),
  passwordTooWeak: (reason: string) => new AppError(PASSWORD_TOO_WEAK_CODE, 400, reason),
  signInLocked: (lockedForMs: number) => {
    const seconds = Math.max(1, Math.ceil(lockedForMs / 1000))
    return new AppError(SIGN_IN_LOCKED_CODE, 429, signInLockedMessage(seconds), { headers: { 'retry-after': String(seconds) } })
  },
  tooManySignInsAtOnce: () =>
    new AppError('TOO_MANY_SIGN_INS', 429, 'Too many sign-ins at once from your address. Try again in a moment.', { headers: { 'retry-after': '1' } }),
  signInBusy: () => new AppError('SIGN_IN_BUSY', 503, 'Sign-in is busy. Try again in a moment.', { headers: { 'retry-after': '1' } }),
  emailInUse: () => new AppError('EMAIL_IN_USE', 409, 'An account with this email already exists'),
  invalidCredentials: () => new AppError('INVALID_CREDENTIALS', 401, 'Invalid email or password'),
  invalidCustomToken: () => new AppError('INVALID_CUSTOM_TOKEN', 401, 'Invalid or expired custom token'),
  missingUserId: () => new AppError('MISSING_USER_ID', 400, 'Missing user ID'),
  sessionNotFound: () => new AppError('SESSION_NOT_FOUND', 404, 'Session not found'),
  userNotFound: () => new AppError('USER_NOT_FOUND', 404, 'User not found'),
  identityUnavailable: () => new AppError('IDENTITY_UNAVAILABLE', 503, 'The identity provider is unavailable'),
  blankField: (field: string) => new AppError('INVALID_BODY', 400, `body/${field} must not be blank`),
  notSupportAdmin: () => new AppError('NOT_SUPPORT_ADMIN', 403, 'Only support admins can list support requests'),
}
