import { describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { ConfigError, loadConfig, PlatformEnv, platformEnvProperties, trustProxySetting } from './config.js'

describe('loadConfig', () => {
  it('fills defaults: DATA_DIR ./data, embedded adapters', () => {
    const config = loadConfig(PlatformEnv, {})
    expect(config).toMatchObject({ DATA_DIR: './data', PORT: 3000, HOST: '0.0.0.0', LOG_LEVEL: 'info', S3_BUCKET: 'finsheet' })
    expect(config.MONGO_URL).toBeUndefined()
  })

  it('coerces numbers and treats empty variables as unset', () => {
    expect(loadConfig(PlatformEnv, { PORT: '8081', MONGO_URL: '' })).toMatchObject({ PORT: 8081 })
  })

  it('names every bad variable in one message', () => {
    let error: unknown
    try {
      loadConfig(PlatformEnv, { PORT: 'eighty', MONGO_URL: 'postgres://x', REDIS_URL: 'redis://r:6379' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(/PORT must be integer \(got "eighty"\)/)
    expect((error as Error).message).toMatch(/MONGO_URL must match pattern/)
  })

  it('names a missing required variable', () => {
    const schema = Type.Object({ ...platformEnvProperties, OPENAI_API_KEY: Type.String({ minLength: 1 }) })
    expect(() => loadConfig(schema, {})).toThrow('Invalid configuration: OPENAI_API_KEY is required')
  })

  it('requires S3 keys with an S3 endpoint, and hides secrets in messages', () => {
    expect(() => loadConfig(PlatformEnv, { S3_ENDPOINT: 'http://minio:9000' })).toThrow(
      'Invalid configuration: S3_ACCESS_KEY is required when S3_ENDPOINT is set; S3_SECRET_KEY is required when S3_ENDPOINT is set',
    )
    const schema = Type.Object({ API_KEY: Type.String({ pattern: '^sk-' }) })
    expect(() => loadConfig(schema, { API_KEY: 'leaked-secret' })).toThrow(/^Invalid configuration: API_KEY must match pattern "\^sk-"$/)
  })

  it('reads TRUST_PROXY as Fastify takes it: nobody, everybody, a hop count, or named ranges and addresses', () => {
    expect(loadConfig(PlatformEnv, {}).TRUST_PROXY).toBe('loopback')
    expect(trustProxySetting('false')).toBe(false)
    expect(trustProxySetting('true')).toBe(true)
    const oneHop = trustProxySetting('1') as (address: string, hop: number) => boolean
    expect([oneHop('10.0.0.1', 0), oneHop('10.0.0.2', 1)]).toEqual([true, false])
    expect(trustProxySetting('loopback, uniquelocal,10.0.0.0/8')).toEqual(['loopback', 'uniquelocal', '10.0.0.0/8'])
    expect(() => loadConfig(PlatformEnv, { TRUST_PROXY: 'loopback; rm -rf' })).toThrow(/TRUST_PROXY must match pattern/)
  })
})
