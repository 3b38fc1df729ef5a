import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTestWorkbook } from '../xlsx/test-workbook.js'
import { runCli } from './main.js'

async function run(argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, { write: (text) => (stdout += text) }, { write: (text) => (stderr += text) })
  return { code, stdout, stderr }
}

describe('finsheet command line', () => {
  let dir: string
  let good: string
  let wrong: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finsheet-cli-'))
    good = join(dir, 'good.xlsx')
    wrong = join(dir, 'wrong.xlsx')
    writeFileSync(good, await makeTestWorkbook())
    writeFileSync(wrong, await makeTestWorkbook({ wrongCache: true }))
    writeFileSync(join(dir, 'notes.xlsx'), 'not a workbook')
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('calc prints every formula cell as JSON, errors as their code', async () => {
    const { code, stdout } = await run(['calc', good])
    expect(code).toBe(0)
    const values = JSON.parse(stdout)
    expect(values['Data!B3']).toBe(6)
    expect(values['Data!C4']).toBe('#DIV/0!')
    expect(values['Data!G1']).toBe(3)
    expect(values["Other Sheet!B2"]).toBe(13)
    expect(values['Data!A1']).toBeUndefined()
  })

  it('check prints nothing but the summary when every cell matches', async () => {
    const { code, stdout } = await run(['check', good])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^\d+ passed, 0 failed\n$/)
  })

  it('check prints each mismatch with its formula, then the counts', async () => {
    const { code, stdout } = await run(['check', wrong])
    expect(code).toBe(1)
    const lines = stdout.trim().split('\n')
    expect(lines[0]).toBe('Data!B3  =A3*2  ours: 6  Excel: 7')
    expect(lines.at(-1)).toMatch(/^\d+ passed, 1 failed$/)
  })

  it('explains a missing file, a file that is not xlsx, and a bad command', async () => {
    const missing = await run(['check', join(dir, 'absent.xlsx')])
    expect(missing).toMatchObject({ code: 2, stdout: '' })
    expect(missing.stderr).toContain('cannot read')
    const notXlsx = await run(['calc', join(dir, 'notes.xlsx')])
    expect(notXlsx.code).toBe(2)
    expect(notXlsx.stderr).toContain('not a readable xlsx workbook')
    const unknown = await run(['compute', good])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown command "compute"')
    expect((await run([])).stderr).toContain('Usage: finsheet')
  })
})
