/**
 * The service on the scaled-out documents adapter: MongoDB as a single-node replica set (transactions
 * need one), started with Testcontainers where a Docker engine answers, skipped with the reason elsewhere.
 */
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMongoDocumentStore } from '@finsheet/platform/external'
import { dockerAvailable, NO_DOCKER_REASON } from '@finsheet/platform/testing'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

async function startMongo(): Promise<{ url: string; container: StartedTestContainer }> {
  const container = await new GenericContainer('mongo:7')
    .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start()
  await container.exec(['mongosh', '--quiet', '--eval', 'rs.initiate({_id: "rs0", members: [{_id: 0, host: "localhost:27017"}]})'])
  for (let attempt = 0; attempt < 60; attempt++) {
    const hello = await container.exec(['mongosh', '--quiet', '--eval', 'db.hello().isWritablePrimary'])
    if (hello.output.trim() === 'true') break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return { url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`, container }
}

if (await dockerAvailable()) {
  describe('the spreadsheet service on MongoDB', () => {
    let mongo: { url: string; container: StartedTestContainer }
    let t: TestApp
    let call: Call
    beforeAll(async () => {
      mongo = await startMongo()
      t = await startTestApp({ store: await createMongoDocumentStore({ url: mongo.url, database: 'finsheet_spreadsheet_test' }) })
      call = clientFor(t.app, await t.tokenFor('mona'))
    }, 180_000)
    afterAll(async () => {
      await t?.close()
      await mongo?.container.stop()
    })

    it('creates from a template, recalculates, merges 20 concurrent writers, undoes, versions and exports', async () => {
      const id = (await call('POST', '/workbooks', { templateId: 'dcf-model' })).json.workbookId
      const edit = await call('POST', '/update-cell', { workbookId: id, sheetName: 'Assumptions', cellAddress: 'B4', value: 2000 })
      expect(edit.json.changedCells.length).toBeGreaterThan(10)
      const revision = edit.json.revision
      const writers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call('POST', '/update-cell', { workbookId: id, sheetName: 'Assumptions', cellAddress: `D${i + 1}`, value: i, revision })),
      )
      expect(writers.every((answer) => answer.status === 200)).toBe(true)
      const cells = (await call('GET', `/workbook/${id}/cells?sheet=Assumptions`)).json.workbook.sheets[0].cells
      for (let i = 0; i < 20; i++) expect(cells[`D${i + 1}`].value).toBe(i)
      await call('POST', `/workbook/${id}/undo`, {})
      expect((await call('GET', `/workbook/${id}/cell/Assumptions!B4/history`)).json.history[0].newInput).toBe('2000')
      expect((await call('POST', `/workbook/${id}/save`, {})).status).toBe(201)
      expect((await call('GET', `/workbook/${id}/versions`)).json.total).toBe(2)
      expect((await call('GET', `/workbook/${id}/export?format=xlsx`)).status).toBe(200)
      expect((await clientFor(t.app, await t.tokenFor('other'))('GET', `/workbook/${id}/cells`)).status).toBe(404)
    })
  })
} else {
  console.log(`spreadsheet service: mongodb ${NO_DOCKER_REASON}`)
  describe.skip(`the spreadsheet service on MongoDB (${NO_DOCKER_REASON})`, () => {
    it('creates from a template, recalculates, merges 20 concurrent writers, undoes, versions and exports', () => {})
  })
}
