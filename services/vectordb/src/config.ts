import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const VectordbEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3005, minimum: 0, maximum: 65_535 }),
})
export type VectordbConfig = Static<typeof VectordbEnv>

export function loadVectordbConfig(env: Record<string, string | undefined> = process.env): VectordbConfig {
  return loadConfig(VectordbEnv, env)
}
