import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const UsersEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3001, minimum: 0, maximum: 65_535 }),
  /** A private Ed25519 JWK (JSON) so several users replicas sign with one key; by default one is generated into DATA_DIR. */
  USERS_SIGNING_JWK: Type.Optional(Type.String({ minLength: 10 })),
  /** Sessions carry whole sheet states, so bodies are larger than elsewhere. */
  USERS_BODY_LIMIT_BYTES: Type.Integer({ default: 10 * 1024 * 1024, minimum: 1024 }),
})
export type UsersConfig = Static<typeof UsersEnv>

export function loadUsersConfig(env: Record<string, string | undefined> = process.env): UsersConfig {
  return loadConfig(UsersEnv, env)
}
