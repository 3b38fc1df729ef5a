import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCircularWorkbook, makeTestWorkbook } from '../xlsx/test-workbook.js'
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
  let circular: string
  let circularIterating: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finsheet-cli-'))
    good = join(dir, 'good.xlsx')
    wrong = join(dir, 'wrong.xlsx')
    writeFileSync(good, await makeTestWorkbook())
    writeFileSync(wrong, await makeTestWorkbook({ wrongCache: true }))
    writeFileSync(join(dir, 'notes.xlsx'), 'not a workbook')
    circular = join(dir, 'circular.xlsx')
    writeFileSync(circular, await makeCircularWorkbook({ cached: 1.5 }))
    circularIterating = join(dir, 'circular-iterating.xlsx')
    writeFileSync(circularIterating, await makeCircularWorkbook({ calcPr: '<calcPr calcId="191029" iterate="1" iterateCount="100" iterateDelta="0.001"/>' }))
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

  it("follows the workbook's iteration settings, and warns of circular references it cannot calculate", async () => {
    const off = await run(['calc', circular])
    expect(off.code).toBe(0)
    expect(JSON.parse(off.stdout)).toEqual({ 'Model!A1': 1.5, 'Model!B1': 4.5 })
    expect(off.stderr).toContain('Circular References: Model!A1')
    const on = await run(['calc', circularIterating])
    expect(JSON.parse(on.stdout)['Model!A1']).toBe(2 - 2 ** -10)
    expect(on.stderr).toBe('')
  })

  it('takes --iterate, --no-iterate, --max-iterations and --max-change over the file', async () => {
    const three = await run(['calc', '--iterate', '--max-iterations', '3', circular])
    // From the saved 1.5, three passes: 1.75, 1.875, 1.9375.
    expect(JSON.parse(three.stdout)['Model!A1']).toBe(1.9375)
    expect(three.stderr).toBe('')
    const fine = await run(['calc', '--max-change=0.0001', circularIterating])
    expect(JSON.parse(fine.stdout)['Model!A1']).toBe(2 - 2 ** -14)
    const off = await run(['calc', '--no-iterate', circularIterating])
    expect(JSON.parse(off.stdout)['Model!A1']).toBe(0)
    expect(off.stderr).toContain('Circular References: Model!A1')
    const check = await run(['check', '--no-iterate', circular])
    expect(check.stdout).toBe('2 passed, 0 failed\n')
  })

  it('refuses iteration limits Excel does not take, and options it does not know', async () => {
    for (const [argv, message] of [
      [['--max-iterations', '0'], '--max-iterations takes a whole number from 1 to 32767, not "0"'],
      [['--max-iterations', '2.5'], 'not "2.5"'],
      [['--max-iterations', '40000'], 'not "40000"'],
      [['--max-change=-1'], '--max-change takes a number of 0 or more, not "-1"'],
      [['--max-change', 'small'], 'not "small"'],
      [['--fast'], "Unknown option '--fast'"],
    ] as const) {
      const result = await run(['calc', ...argv, circular])
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(message)
    }
    expect((await run(['--help'])).stdout).toContain('--max-iterations N')
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
