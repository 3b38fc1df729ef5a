import { MISSING_FIELDS_MESSAGE, PASSWORD_TOO_SHORT_MESSAGE } from '@finsheet/contracts'
import { AppError } from '@finsheet/platform'

export const usersErrors = {
  missingFields: () => new AppError('MISSING_FIELDS', 400, MISSING_FIELDS_MESSAGE),
  invalidEmail: () => new AppError('INVALID_EMAIL', 400, 'Please enter a valid email address'),
  passwordTooShort: () => new AppError('PASSWORD_TOO_SHORT', 400, PASSWORD_TOO_SHORT_MESSAGE),
  emailInUse: () => new AppError('EMAIL_IN_USE', 409, 'An account with this email already exists'),
  invalidCredentials: () => new AppError('INVALID_CREDENTIALS', 401, 'Invalid email or password'),
  invalidCustomToken: () => new AppError('INVALID_CUSTOM_TOKEN', 401, 'Invalid or expired custom token'),
  missingUserId: () => new AppError('MISSING_USER_ID', 400, 'Missing user ID'),
  sessionNotFound: () => new AppError('SESSION_NOT_FOUND', 404, 'Session not found'),
  userNotFound: () => new AppError('USER_NOT_FOUND', 404, 'User not found'),
  identityUnavailable: () => new AppError('IDENTITY_UNAVAILABLE', 503, 'The identity provider is unavailable'),
}
