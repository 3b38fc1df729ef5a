import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VectorStoreError, type VectorStore } from './port.js'

export function vectorStoreContract(adapterName: string, open: () => Promise<{ store: VectorStore; reopen?: () => Promise<VectorStore>; close(): Promise<void> }>) {
  describe(`vectors port: ${adapterName}`, () => {
    let harness: Awaited<ReturnType<typeof open>>
    let store: VectorStore
    let counter = 0
    const fresh = async (dimensions = 3) => {
      const name = `c${++counter}`
      await store.ensureCollection(name, dimensions)
      return name
    }
    beforeAll(async () => {
      harness = await open()
      store = harness.store
    })
    afterAll(async () => {
      await harness?.close()
    })

    it('finds the nearest vectors by cosine similarity, best first, with payloads', async () => {
      const c = await fresh()
      await store.upsert(c, [
        { id: 'x', vector: [1, 0, 0], payload: { label: 'x axis' } },
        { id: 'xy', vector: [1, 1, 0], payload: { label: 'diagonal' } },
        { id: 'y', vector: [0, 2, 0], payload: { label: 'y axis' } },
        { id: '-x', vector: [-3, 0, 0], payload: { label: 'minus x' } },
      ])
      const matches = await store.search(c, [2, 0.1, 0], { limit: 3 })
      expect(matches.map((m) => m.id)).toEqual(['x', 'xy', 'y'])
      expect(matches[0].score).toBeCloseTo(2 / Math.sqrt(4.01), 4)
      expect(matches[1].score).toBeCloseTo(2.1 / (Math.sqrt(4.01) * Math.SQRT2), 4)
      expect(matches[0].payload).toEqual({ label: 'x axis' })
      const all = await store.search(c, [1, 0, 0], { limit: 10 })
      expect(all.map((m) => m.id)).toEqual(['x', 'xy', 'y', '-x'])
      expect(all[3].score).toBeCloseTo(-1, 4)
    })

    it('filters on payload fields by value and by a set of values', async () => {
      const c = await fresh()
      await store.upsert(c, [
        { id: 'a1', vector: [1, 0, 0], payload: { workbookId: 'a', kind: 'formula' } },
        { id: 'a2', vector: [0.9, 0.1, 0], payload: { workbookId: 'a', kind: 'cell' } },
        { id: 'b1', vector: [1, 0, 0], payload: { workbookId: 'b', kind: 'formula' } },
      ])
      expect((await store.search(c, [1, 0, 0], { limit: 10, filter: { workbookId: 'a' } })).map((m) => m.id)).toEqual(['a1', 'a2'])
      expect((await store.search(c, [1, 0, 0], { limit: 10, filter: { workbookId: 'a', kind: 'cell' } })).map((m) => m.id)).toEqual(['a2'])
      expect((await store.search(c, [1, 0, 0], { limit: 10, filter: { workbookId: { $in: ['b', 'z'] } } })).map((m) => m.id)).toEqual(['b1'])
      expect(await store.count(c, { kind: 'formula' })).toBe(2)
      expect(await store.count(c)).toBe(3)
    })

    it('indexes the payload fields it is told searches filter on, and ensures the collection again harmlessly', async () => {
      const name = `indexed${++counter}`
      await store.ensureCollection(name, 2, { indexedFields: ['ownerId', 'workbookId'] })
      await store.ensureCollection(name, 2, { indexedFields: ['ownerId', 'workbookId'] })
      await store.upsert(name, [
        { id: 'mine', vector: [1, 0], payload: { ownerId: 'ana', workbookId: 'w1' } },
        { id: 'theirs', vector: [1, 0], payload: { ownerId: 'bob', workbookId: 'w2' } },
      ])
      expect((await store.search(name, [1, 0], { limit: 5, filter: { ownerId: 'ana' } })).map((m) => m.id)).toEqual(['mine'])
    })

    it('replaces a point on upsert and deletes by id and by filter', async () => {
      const c = await fresh()
      await store.upsert(c, [
        { id: 'p', vector: [1, 0, 0], payload: { v: 1, workbookId: 'w' } },
        { id: 'q', vector: [0, 1, 0], payload: { v: 1, workbookId: 'w' } },
        { id: 'r', vector: [0, 0, 1], payload: { v: 1, workbookId: 'other' } },
      ])
      await store.upsert(c, [{ id: 'p', vector: [0, 0, 1], payload: { v: 2, workbookId: 'w' } }])
      const [top] = await store.search(c, [0, 0, 1], { limit: 1, filter: { workbookId: 'w' } })
      expect(top).toMatchObject({ id: 'p', payload: { v: 2, workbookId: 'w' } })
      await store.delete(c, ['p', 'never-there'])
      expect(await store.count(c)).toBe(2)
      await store.deleteWhere(c, { workbookId: 'w' })
      expect((await store.search(c, [1, 1, 1], { limit: 10 })).map((m) => m.id)).toEqual(['r'])
    })

    it('keeps ids of any text', async () => {
      const c = await fresh(2)
      await store.upsert(c, [{ id: 'wb-1!Sheet 1!A1', vector: [1, 2], payload: {} }])
      expect((await store.search(c, [1, 2], { limit: 1 }))[0].id).toBe('wb-1!Sheet 1!A1')
    })

    it('refuses wrong dimensions, zero vectors, unknown collections and a dimension change', async () => {
      const c = await fresh(3)
      await expect(store.upsert(c, [{ id: 'a', vector: [1, 2], payload: {} }])).rejects.toBeInstanceOf(VectorStoreError)
      await expect(store.upsert(c, [{ id: 'a', vector: [0, 0, 0], payload: {} }])).rejects.toBeInstanceOf(VectorStoreError)
      await expect(store.search(c, [1, 2, 3, 4], { limit: 1 })).rejects.toBeInstanceOf(VectorStoreError)
      await expect(store.search('missing', [1, 2, 3], { limit: 1 })).rejects.toBeInstanceOf(VectorStoreError)
      await expect(store.ensureCollection(c, 4)).rejects.toBeInstanceOf(VectorStoreError)
      await store.ensureCollection(c, 3)
    })

    it('ranks as an exact cosine search does, for sparse and dense vectors mixed, after replacements and deletes', async () => {
      const dimensions = 64
      const c = await fresh(dimensions)
      // the filtered field indexed once points exist, as a collection created by an earlier version would be
      await store.upsert(c, [{ id: 'early', vector: [1, ...new Array<number>(dimensions - 1).fill(0)], payload: { group: 2 } }])
      await store.ensureCollection(c, dimensions, { indexedFields: ['group'] })
      let seed = 7
      const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
      const vectorOf = (nonZero: number) => {
        const vector = new Array<number>(dimensions).fill(0)
        for (let k = 0; k < nonZero; k++) vector[Math.floor(random() * dimensions)] = random() * 2 - 1
        if (!vector.some((x) => x !== 0)) vector[0] = 1
        return vector
      }
      const points = Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, vector: vectorOf(i % 5 === 0 ? 60 : 4), payload: { group: i % 3 as number } }))
      await store.upsert(c, points)
      // replace a third of them and delete a tenth
      const replaced = points.filter((_, i) => i % 3 === 0).map((point) => ({ ...point, vector: vectorOf(3) }))
      await store.upsert(c, replaced)
      const deleted = points.filter((_, i) => i % 10 === 1).map((point) => point.id)
      await store.delete(c, deleted)
      const current = new Map<string, { id: string; vector: number[]; payload: { group: number } }>([['early', { id: 'early', vector: [1, ...new Array<number>(dimensions - 1).fill(0)], payload: { group: 2 } }], ...points.map((point) => [point.id, point] as const)])
      for (const point of replaced) current.set(point.id, point)
      for (const id of deleted) current.delete(id)
      const cosine = (a: number[], b: number[]) => {
        let dot = 0
        let na = 0
        let nb = 0
        for (let i = 0; i < a.length; i++) {
          dot += a[i] * b[i]
          na += a[i] * a[i]
          nb += b[i] * b[i]
        }
        return dot / Math.sqrt(na * nb)
      }
      for (let q = 0; q < 5; q++) {
        const query = vectorOf(q % 2 === 0 ? 3 : 40)
        const expected = [...current.values()]
          .filter((point) => point.payload.group !== 1)
          .map((point) => ({ id: point.id, score: cosine(query, point.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 10)
        const found = await store.search(c, query, { limit: 10, filter: { group: { $in: [0, 2] } } })
        expect(found.map((match) => match.score)).toEqual(expected.map((match) => expect.closeTo(match.score, 4)))
        expect(new Set(found.map((match) => match.id))).toEqual(new Set(expected.map((match) => match.id)))
        const inGroup = [...current.values()]
          .filter((point) => point.payload.group === 2)
          .map((point) => ({ id: point.id, score: cosine(query, point.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 5)
        expect((await store.search(c, query, { limit: 5, filter: { group: 2 } })).map((match) => match.score)).toEqual(inGroup.map((match) => expect.closeTo(match.score, 4)))
      }
      expect(await store.search(c, vectorOf(3), { limit: 5, filter: { group: 7 } })).toEqual([])
      expect(await store.count(c)).toBe(current.size)
    })

    it('keeps vectors across a restart', async () => {
      if (!harness.reopen) return
      const c = await fresh(2)
      await store.upsert(c, [{ id: 'kept', vector: [3, 4], payload: { n: 1 } }])
      store = await harness.reopen()
      expect(await store.search(c, [3, 4], { limit: 1 })).toEqual([{ id: 'kept', score: expect.closeTo(1, 5), payload: { n: 1 } }])
    })
  })
}
