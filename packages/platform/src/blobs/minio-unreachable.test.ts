import { describe, expect, it } from 'vitest'
import { DependencyUnavailableError } from '../errors/dependency-unavailable.js'
import { toAppError } from '../errors/error-handler.js'
import { startS3rver } from '../testing/servers.js'
import { createMinioBlobStore } from './minio-blob-store.js'

describe('MinIO blobs while the server cannot be reached', () => {
  it('answers DependencyUnavailableError (a 503 with Retry-After), not a raw socket error', async () => {
    const s3 = await startS3rver('unreachable')
    const blobs = await createMinioBlobStore({ endpoint: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'unreachable' })
    await blobs.put('users/u1/files/a.txt', 'kept')
    await s3.stop()
    for (const call of [() => blobs.put('users/u1/files/b.txt', 'lost'), () => blobs.get('users/u1/files/a.txt'), () => blobs.stat('users/u1/files/a.txt'), () => blobs.delete('users/u1/files/a.txt'), () => blobs.list('users/'), () => blobs.ping()]) {
      const error = await call().then(
        () => null,
        (reason: unknown) => reason,
      )
      expect(error).toBeInstanceOf(DependencyUnavailableError)
      expect(toAppError(error)).toMatchObject({ statusCode: 503, message: 'File storage cannot be reached. Nothing was stored; try again in a moment.' })
    }
    // Links are signed offline: they need no server.
    expect(await blobs.downloadUrl('users/u1/files/a.txt')).toContain('/unreachable/users/u1/files/a.txt')
  })
})
