import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const SpreadsheetEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3002, minimum: 0, maximum: 65_535 }),
})
export type SpreadsheetConfig = Static<typeof SpreadsheetEnv>

export function loadSpreadsheetConfig(env: Record<string, string | undefined> = process.env): SpreadsheetConfig {
  return loadConfig(SpreadsheetEnv, env)
}
