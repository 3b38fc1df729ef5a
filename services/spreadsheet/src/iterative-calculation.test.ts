/**
 * A workbook imported with iterative calculation switched on: a circular model (an LBO charging
 * interest on average debt) calculates to its converged values, on this replica and on another that
 * loads it from the store, through edits; the setting shows in the metadata and in the inputs route a
 * calculating client reads. Without the setting the loop is not calculated (its cells show 0, as in
 * Excel), so the returns differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildFinancialModel, calculateTemplate, templateSheets } from '@finsheet/workbook'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let replica: TestApp
let call: Call
let callReplica: Call

beforeAll(async () => {
  t = await startTestApp()
  replica = await startTestApp({ replicaOf: t })
  call = clientFor(t.app, await t.tokenFor('modeller'))
  callReplica = clientFor(replica.app, await replica.tokenFor('modeller'))
})
afterAll(async () => {
  await replica.close()
  await t.close()
})

const lbo = buildFinancialModel('lbo', 'Acme').template
const irr = lbo.keyOutputs.find((output) => output.label === 'IRR')!
const irrOf = async (client: Call, id: string) => (await client('GET', `/workbook/${id}/cells?sheet=Returns`)).json.workbook.sheets[0].cells[irr.address].value

describe('iterative calculation', () => {
  it('calculates an imported circular model, keeps the setting, and iterates again after edits on another replica', async () => {
    const imported = await call('POST', '/workbooks/import', { name: 'Acme LBO', sheets: templateSheets(lbo), isAIGenerated: true, iterativeCalculation: true })
    expect(imported.status).toBe(201)
    expect(imported.json.workbook).toMatchObject({ isAIGenerated: true, iterativeCalculation: true })
    const id = imported.json.workbookId
    const expected = calculateTemplate(lbo).getValue('Returns', irr.address) as number
    expect(await irrOf(call, id)).toBeCloseTo(expected, 8)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.iterativeCalculation).toBe(true)

    const exitMultiple = lbo.sheets[0].rows.findIndex((row) => row[0] === 'Exit EV/EBITDA multiple') + 1
    const edit = await callReplica('POST', '/update-cell', { workbookId: id, sheetName: 'Assumptions', cellAddress: `B${exitMultiple}`, value: 11 })
    expect(edit.status).toBe(200)
    const changed = buildFinancialModel('lbo', 'Acme', { exitMultiple: 11 }).template
    const after = calculateTemplate(changed).getValue('Returns', irr.address) as number
    expect(after).toBeGreaterThan(expected)
    expect(await irrOf(callReplica, id)).toBeCloseTo(after, 6)
    expect(await irrOf(call, id)).toBeCloseTo(after, 6)
  })

  it('leaves the loop uncalculated where the workbook does not iterate', async () => {
    const imported = await call('POST', '/workbooks/import', { name: 'Acme LBO, not iterated', sheets: templateSheets(lbo) })
    expect(imported.json.workbook.iterativeCalculation).toBe(false)
    const iterated = calculateTemplate(lbo).getValue('Returns', irr.address) as number
    expect(await irrOf(call, imported.json.workbookId)).not.toBeCloseTo(iterated, 6)
    expect((await call('GET', `/workbook/${imported.json.workbookId}/inputs`)).json.workbook.iterativeCalculation).toBe(false)
  })

  it('turns iteration on by a change of the workbook, kept in the store, and off again by one undo', async () => {
    const imported = await call('POST', '/workbooks/import', { name: 'Acme LBO, iterated later', sheets: templateSheets(lbo) })
    const id = imported.json.workbookId
    const iterated = calculateTemplate(lbo).getValue('Returns', irr.address) as number
    const on = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-calculation', iterate: true, maxIterations: 1000, maxChange: 0.000001 }] })
    expect(on.status).toBe(200)
    expect(await irrOf(call, id)).toBeCloseTo(iterated, 4)
    // another replica loads it from the store with the same settings
    expect(await irrOf(callReplica, id)).toBeCloseTo(iterated, 4)
    const inputs = (await call('GET', `/workbook/${id}/inputs`)).json.workbook
    expect(inputs).toMatchObject({ iterativeCalculation: true, iterationLimits: { maxIterations: 1000, maxChange: 0.000001 } })
    const listed = (await call('GET', '/workbooks')).json.workbooks.find((workbook: { workbookId: string }) => workbook.workbookId === id)
    expect(listed).toMatchObject({ iterativeCalculation: true, iterationLimits: { maxIterations: 1000, maxChange: 0.000001 } })

    const refused = await call('POST', `/workbook/${id}/changes`, { commands: [{ type: 'set-calculation', iterate: true, maxIterations: 0, maxChange: 0.001 }] })
    expect(refused.status).toBe(400)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook.iterationLimits.maxIterations).toBe(1000)

    expect((await call('POST', `/workbook/${id}/undo`, {})).status).toBe(200)
    expect((await call('GET', `/workbook/${id}/inputs`)).json.workbook).toMatchObject({ iterativeCalculation: false, iterationLimits: { maxIterations: 100, maxChange: 0.001 } })
  })
})
