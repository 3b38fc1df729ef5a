import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DuplicateKeyError, InvalidQueryError, type DocumentStore } from './port.js'

interface Cell {
  id: string
  workbookId: string
  sheet: string
  address: string
  row: number
  value: string | number | boolean | null
  formula?: string | null
  style?: { bold?: boolean; color?: string } | null
}

interface Account {
  id: string
  email: string
  revision: number
  profile?: { plan: string; seats?: number }
}

const cellsOptions = { indexes: [{ fields: ['workbookId', 'sheet', 'row'] }, { fields: ['address'] }] }
const accountsOptions = { indexes: [{ fields: ['email'], unique: true }] }

/**
 * The contract every documents adapter keeps. `open` gives a fresh, empty store; collections are
 * named per test so cases stay independent.
 */
export function documentStoreContract(adapterName: string, open: () => Promise<DocumentStore>) {
  describe(`documents port: ${adapterName}`, () => {
    let store: DocumentStore
    let counter = 0
    const fresh = (prefix: string) => `${prefix}${++counter}`

    beforeAll(async () => {
      store = await open()
    })
    afterAll(async () => {
      await store?.close()
    })

    const seedCells = async (name: string) => {
      const cells = store.collection<Cell>(name, cellsOptions)
      await cells.putMany([
        { id: 'w1!S1!A1', workbookId: 'w1', sheet: 'S1', address: 'A1', row: 1, value: 10, formula: null },
        { id: 'w1!S1!A2', workbookId: 'w1', sheet: 'S1', address: 'A2', row: 2, value: 20, style: { bold: true } },
        { id: 'w1!S1!B1', workbookId: 'w1', sheet: 'S1', address: 'B1', row: 1, value: 'revenue' },
        { id: 'w1!S2!A1', workbookId: 'w1', sheet: 'S2', address: 'A1', row: 1, value: true },
        { id: 'w2!S1!A1', workbookId: 'w2', sheet: 'S1', address: 'A1', row: 1, value: null, formula: '=1/0' },
        { id: 'w1!S1!A10', workbookId: 'w1', sheet: 'S1', address: 'A10', row: 10, value: 5 },
      ])
      return cells
    }

    it('puts, gets and replaces a document by id', async () => {
      const accounts = store.collection<Account>(fresh('accounts'), accountsOptions)
      expect(await accounts.get('a')).toBeNull()
      await accounts.put({ id: 'a', email: 'a@x.io', revision: 1, profile: { plan: 'free', seats: 1 } })
      expect(await accounts.get('a')).toEqual({ id: 'a', email: 'a@x.io', revision: 1, profile: { plan: 'free', seats: 1 } })
      await accounts.put({ id: 'a', email: 'a@x.io', revision: 2 })
      expect(await accounts.get('a')).toEqual({ id: 'a', email: 'a@x.io', revision: 2 })
      expect(await accounts.count()).toBe(1)
    })

    it('keeps unicode, nested objects and numbers exactly', async () => {
      const docs = store.collection<{ id: string; text: string; nested: unknown; n: number }>(fresh('misc'))
      const doc = { id: 'ü/é 1', text: 'Δ€ 😀 "quoted" \\ back', nested: { a: [1, { b: null }], c: 'x' }, n: 0.1 + 0.2 }
      await docs.put(doc)
      expect(await docs.get('ü/é 1')).toEqual(doc)
    })

    it('insert refuses a taken id and a taken unique field with DuplicateKeyError', async () => {
      const accounts = store.collection<Account>(fresh('accounts'), accountsOptions)
      await accounts.insert({ id: 'u1', email: 'one@x.io', revision: 1 })
      await expect(accounts.insert({ id: 'u1', email: 'other@x.io', revision: 1 })).rejects.toBeInstanceOf(DuplicateKeyError)
      await expect(accounts.insert({ id: 'u2', email: 'one@x.io', revision: 1 })).rejects.toBeInstanceOf(DuplicateKeyError)
      await expect(accounts.put({ id: 'u3', email: 'one@x.io', revision: 1 })).rejects.toBeInstanceOf(DuplicateKeyError)
      expect(await accounts.count()).toBe(1)
      expect((await accounts.get('u1'))?.email).toBe('one@x.io')
    })

    it('a sparse unique index allows many documents without the field', async () => {
      const people = store.collection<{ id: string; email?: string | null }>(fresh('people'), { indexes: [{ fields: ['email'], unique: true, sparse: true }] })
      await people.insert({ id: 'anon1', email: null })
      await people.insert({ id: 'anon2' })
      await people.insert({ id: 'anon3', email: null })
      await people.insert({ id: 'named', email: 'n@x.io' })
      await expect(people.insert({ id: 'named2', email: 'n@x.io' })).rejects.toBeInstanceOf(DuplicateKeyError)
      expect((await people.find({ email: 'n@x.io' })).map((p) => p.id)).toEqual(['named'])
      expect(await people.count({ email: null })).toBe(3)
    })

    it('getMany returns the found documents in the order asked', async () => {
      const cells = await seedCells(fresh('cells'))
      const found = await cells.getMany(['w1!S1!B1', 'missing', 'w1!S1!A1'])
      expect(found.map((c) => c.id)).toEqual(['w1!S1!B1', 'w1!S1!A1'])
    })

    it('filters by equality on several indexed fields, on booleans and on null (which matches missing)', async () => {
      const cells = await seedCells(fresh('cells'))
      expect((await cells.find({ workbookId: 'w1', sheet: 'S1' })).map((c) => c.address).sort()).toEqual(['A1', 'A10', 'A2', 'B1'])
      expect((await cells.find({ value: true })).map((c) => c.id)).toEqual(['w1!S2!A1'])
      expect((await cells.find({ formula: null })).map((c) => c.id).sort()).toEqual(['w1!S1!A1', 'w1!S1!A10', 'w1!S1!A2', 'w1!S1!B1', 'w1!S2!A1'])
      expect((await cells.find({ 'style.bold': true })).map((c) => c.id)).toEqual(['w1!S1!A2'])
      expect(await cells.find({ id: 'w2!S1!A1' })).toHaveLength(1)
    })

    it('filters with ranges, $ne, $in and $prefix', async () => {
      const cells = await seedCells(fresh('cells'))
      const ids = async (filter: Parameters<typeof cells.find>[0]) => (await cells.find(filter)).map((c) => c.id).sort()
      expect(await ids({ workbookId: 'w1', sheet: 'S1', row: { $gte: 2 } })).toEqual(['w1!S1!A10', 'w1!S1!A2'])
      expect(await ids({ workbookId: 'w1', row: { $gt: 1, $lt: 10 } })).toEqual(['w1!S1!A2'])
      expect(await ids({ workbookId: 'w1', row: { $lte: 1 }, sheet: { $ne: 'S1' } })).toEqual(['w1!S2!A1'])
      expect(await ids({ sheet: { $in: ['S2', 'S9'] } })).toEqual(['w1!S2!A1'])
      expect(await ids({ formula: { $in: ['=1/0', null] }, workbookId: 'w2' })).toEqual(['w2!S1!A1'])
      expect(await ids({ formula: { $ne: null } })).toEqual(['w2!S1!A1'])
      expect(await ids({ address: { $prefix: 'A1' } })).toEqual(['w1!S1!A1', 'w1!S1!A10', 'w1!S2!A1', 'w2!S1!A1'])
      expect(await ids({ id: { $prefix: 'w1!S1!' } })).toEqual(['w1!S1!A1', 'w1!S1!A10', 'w1!S1!A2', 'w1!S1!B1'])
      expect(await ids({ address: { $prefix: 'Z' } })).toEqual([])
      expect(await ids({ sheet: { $in: [] } })).toEqual([])
    })

    it('finds documents deferred: the same ones in the same order, with their ids, each decoded when read', async () => {
      const cells = await seedCells(fresh('cells'))
      const found = await cells.find({ workbookId: 'w1' }, { sort: [['row', -1], ['address', 1]] })
      const deferred = await cells.findDeferred({ workbookId: 'w1' }, { sort: [['row', -1], ['address', 1]] })
      expect(deferred.map((doc) => doc.id)).toEqual(found.map((doc) => doc.id))
      expect(deferred.map((doc) => doc.read())).toEqual(found)
      expect(deferred[0].read()).toEqual(deferred[0].read())
      expect(await cells.findDeferred({ id: { $prefix: 'w9!' } })).toEqual([])
    })

    it('sorts on several fields, pages with limit and offset, and counts', async () => {
      const cells = await seedCells(fresh('cells'))
      const page = (offset: number, limit: number) =>
        cells.find({ workbookId: 'w1' }, { sort: [['row', -1], ['address', 1]], offset, limit }).then((r) => r.map((c) => c.id))
      expect(await page(0, 2)).toEqual(['w1!S1!A10', 'w1!S1!A2'])
      expect(await page(2, 2)).toEqual(['w1!S1!A1', 'w1!S2!A1'])
      expect(await page(4, 2)).toEqual(['w1!S1!B1'])
      expect(await cells.find({ workbookId: 'w1' }, { offset: 4 })).toHaveLength(1)
      expect(await cells.find({}, { limit: 0 })).toEqual([])
      expect(await cells.count({ workbookId: 'w1' })).toBe(5)
      expect(await cells.count()).toBe(6)
      expect((await cells.findOne({ workbookId: 'w1' }, { sort: [['row', 1], ['address', -1]] }))?.id).toBe('w1!S1!B1')
      expect(await cells.findOne({ workbookId: 'nope' })).toBeNull()
    })

    it('update sets top-level fields, replaces nested objects whole and works as compare-and-set', async () => {
      const accounts = store.collection<Account>(fresh('accounts'), accountsOptions)
      await accounts.put({ id: 'a', email: 'a@x.io', revision: 1, profile: { plan: 'free', seats: 3 } })
      expect(await accounts.update({ id: 'a', revision: 1 }, { revision: 2, profile: { plan: 'pro' } })).toBe(1)
      expect(await accounts.get('a')).toEqual({ id: 'a', email: 'a@x.io', revision: 2, profile: { plan: 'pro' } })
      // A second writer that read revision 1 loses the race and changes nothing.
      expect(await accounts.update({ id: 'a', revision: 1 }, { revision: 2, email: 'late@x.io' })).toBe(0)
      expect((await accounts.get('a'))?.email).toBe('a@x.io')
      await accounts.put({ id: 'b', email: 'b@x.io', revision: 1 })
      await expect(accounts.update({ id: 'b' }, { email: 'a@x.io' })).rejects.toBeInstanceOf(DuplicateKeyError)
    })

    it('deletes one document and many by filter', async () => {
      const cells = await seedCells(fresh('cells'))
      expect(await cells.delete('w1!S1!A1')).toBe(true)
      expect(await cells.delete('w1!S1!A1')).toBe(false)
      expect(await cells.deleteMany({ workbookId: 'w1', sheet: 'S1' })).toBe(3)
      expect((await cells.find()).map((c) => c.id).sort()).toEqual(['w1!S2!A1', 'w2!S1!A1'])
    })

    it('putMany writes all documents or none', async () => {
      const accounts = store.collection<Account>(fresh('accounts'), accountsOptions)
      await accounts.put({ id: 'taken', email: 'dup@x.io', revision: 1 })
      const batch = Array.from({ length: 50 }, (_, i) => ({ id: `n${i}`, email: `n${i}@x.io`, revision: 1 }))
      batch.push({ id: 'late', email: 'dup@x.io', revision: 1 })
      await expect(accounts.putMany(batch)).rejects.toBeInstanceOf(DuplicateKeyError)
      expect(await accounts.count()).toBe(1)
      await accounts.putMany(batch.slice(0, 50))
      expect(await accounts.count()).toBe(51)
    })

    it('bulk-writes thousands of cells in one call and reads a sheet back by index', async () => {
      const cells = store.collection<Cell>(fresh('cells'), cellsOptions)
      const batch: Cell[] = []
      for (let row = 1; row <= 1000; row++) {
        for (const col of ['A', 'B', 'C', 'D', 'E']) {
          batch.push({ id: `wb!Data!${col}${row}`, workbookId: 'wb', sheet: 'Data', address: `${col}${row}`, row, value: row * 10 })
        }
      }
      await cells.putMany(batch)
      expect(await cells.count({ workbookId: 'wb', sheet: 'Data' })).toBe(5000)
      const rows = await cells.find({ workbookId: 'wb', sheet: 'Data', row: { $gte: 500, $lt: 502 } }, { sort: [['row', 1], ['address', 1]] })
      expect(rows.map((c) => c.address)).toEqual(['A500', 'B500', 'C500', 'D500', 'E500', 'A501', 'B501', 'C501', 'D501', 'E501'])
    })

    it('commits a transaction across collections together', async () => {
      const workbooks = fresh('workbooks')
      const cellsName = fresh('cells')
      await store.collection<{ id: string; revision: number }>(workbooks).put({ id: 'wb', revision: 1 })
      const result = await store.transaction(async (tx) => {
        const wb = await tx.collection<{ id: string; revision: number }>(workbooks).get('wb')
        await tx.collection<Cell>(cellsName, cellsOptions).putMany([
          { id: 'wb!S!A1', workbookId: 'wb', sheet: 'S', address: 'A1', row: 1, value: 1 },
          { id: 'wb!S!A2', workbookId: 'wb', sheet: 'S', address: 'A2', row: 2, value: 2 },
        ])
        const changed = await tx.collection<{ id: string; revision: number }>(workbooks).update({ id: 'wb', revision: wb!.revision }, { revision: wb!.revision + 1 })
        return changed
      })
      expect(result).toBe(1)
      expect(await store.collection<{ id: string; revision: number }>(workbooks).get('wb')).toEqual({ id: 'wb', revision: 2 })
      expect(await store.collection<Cell>(cellsName).count()).toBe(2)
    })

    it('rolls a failed transaction back in every collection, and no reader sees its writes', async () => {
      const workbooks = fresh('workbooks')
      const cellsName = fresh('cells')
      const wbs = store.collection<{ id: string; revision: number }>(workbooks)
      await wbs.put({ id: 'wb', revision: 1 })
      let releaseWork!: () => void
      const workMayFail = new Promise<void>((resolve) => (releaseWork = resolve))
      let wroteInside!: () => void
      const wrote = new Promise<void>((resolve) => (wroteInside = resolve))
      const failing = store.transaction(async (tx) => {
        await tx.collection<Cell>(cellsName, cellsOptions).put({ id: 'x', workbookId: 'wb', sheet: 'S', address: 'A1', row: 1, value: 1 })
        await tx.collection<{ id: string; revision: number }>(workbooks).put({ id: 'wb', revision: 99 })
        wroteInside()
        await workMayFail
        throw new Error('boom')
      })
      await wrote
      const readDuring = wbs.get('wb')
      releaseWork()
      await expect(failing).rejects.toThrow('boom')
      expect(await readDuring).toEqual({ id: 'wb', revision: 1 })
      expect(await wbs.get('wb')).toEqual({ id: 'wb', revision: 1 })
      expect(await store.collection<Cell>(cellsName).count()).toBe(0)
    })

    it('refuses field and collection names that are not plain identifiers', async () => {
      const cells = await seedCells(fresh('cells'))
      await expect(cells.find({ "address') OR 1=1 --": 'x' })).rejects.toBeInstanceOf(InvalidQueryError)
      await expect(cells.find({ $where: 'x' })).rejects.toBeInstanceOf(InvalidQueryError)
      await expect(cells.find({ row: { $regex: '.*' } as never })).rejects.toBeInstanceOf(InvalidQueryError)
      await expect(cells.find({}, { sort: [['row; DROP TABLE x', 1]] })).rejects.toBeInstanceOf(InvalidQueryError)
      expect(() => store.collection('bad name; --')).toThrow(InvalidQueryError)
      await expect(cells.put({ id: '' } as Cell)).rejects.toBeInstanceOf(InvalidQueryError)
    })

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })
  })
}
