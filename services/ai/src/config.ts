import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const AiEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3004, minimum: 0, maximum: 65_535 }),
})
export type AiConfig = Static<typeof AiEnv>

export function loadAiConfig(env: Record<string, string | undefined> = process.env): AiConfig {
  return loadConfig(AiEnv, env)
}
