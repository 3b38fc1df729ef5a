import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const UsersEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3001, minimum: 0, maximum: 65_535 }),
  /** A private Ed25519 JWK (JSON) so several users replicas sign with one key; by default one is generated into DATA_DIR. */
  USERS_SIGNING_JWK: Type.Optional(Type.String({ minLength: 10 })),
  /** Failed sign-ins for one account before it is locked out; after a lockout each further failure locks it again. */
  SIGN_IN_ACCOUNT_FAILURES: Type.Integer({ default: 5, minimum: 1 }),
  /** Failed sign-ins from one client address, across accounts, before the address is locked out. */
  SIGN_IN_ADDRESS_FAILURES: Type.Integer({ default: 20, minimum: 1 }),
  /** How long failures are remembered after the last one, in ms. */
  SIGN_IN_FAILURE_WINDOW_MS: Type.Integer({ default: 15 * 60_000, minimum: 1000 }),
  /** The first lockout, in ms; each one after it lasts twice as long as the one before. */
  SIGN_IN_LOCKOUT_MS: Type.Integer({ default: 30_000, minimum: 100 }),
  /** The longest lockout, in ms. */
  SIGN_IN_MAX_LOCKOUT_MS: Type.Integer({ default: 15 * 60_000, minimum: 100 }),
  /** Password checks (scrypt) running at once; the rest wait their turn, fairly across client addresses. */
  SIGN_IN_CONCURRENCY: Type.Integer({ default: 2, minimum: 1, maximum: 64 }),
  /** Sign-ins and sign-ups waiting for a password check at most; past it the service answers 503. */
  SIGN_IN_MAX_WAITING: Type.Integer({ default: 64, minimum: 1 }),
  /** Of those, from one client address at most; past it that address gets 429. */
  SIGN_IN_MAX_WAITING_PER_ADDRESS: Type.Integer({ default: 4, minimum: 1 }),
  /** Longest wait for a password check, in ms; past it the attempt answers 503. */
  SIGN_IN_MAX_WAIT_MS: Type.Integer({ default: 10_000, minimum: 100 }),
  /** Comma-separated emails of the support admins, who may list Help & Support requests. */
  SUPPORT_ADMIN_EMAILS: Type.String({ default: '' }),
})
export type UsersConfig = Static<typeof UsersEnv>

/** The support admins' emails from SUPPORT_ADMIN_EMAILS. */
export function supportAdminEmails(config: Pick<UsersConfig, 'SUPPORT_ADMIN_EMAILS'>): string[] {
  return config.SUPPORT_ADMIN_EMAILS.split(',')
    .map((email) => email.trim())
    .filter((email) => email !== '')
}

export function loadUsersConfig(env: Record<string, string | undefined> = process.env): UsersConfig {
  return loadConfig(UsersEnv, env)
}
