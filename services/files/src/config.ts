import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const FilesEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3003, minimum: 0, maximum: 65_535 }),
})
export type FilesConfig = Static<typeof FilesEnv>

export function loadFilesConfig(env: Record<string, string | undefined> = process.env): FilesConfig {
  return loadConfig(FilesEnv, env)
}
