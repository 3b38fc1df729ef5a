import { describe, expect, it } from 'vitest'
import { Engine } from '../../engine/engine.js'
import { CellError } from '../../values.js'
import { functionCatalogue } from '../index.js'

function v(engine: Engine, address: string) {
  const value = engine.getValue('S', address)
  return value instanceof CellError ? value.code : value
}

function loaded(): Engine {
  const engine = new Engine()
  engine.addSheet('S')
  engine.loadCells([
    { sheet: 'S', address: 'A1', input: 'MSFT' },
    { sheet: 'S', address: 'B1', input: '=WEBSERVICE("https://example.com/rate?"&A1)', saved: '1.0842' },
    { sheet: 'S', address: 'B2', input: '=VALUE(B1)*100' },
    {
      sheet: 'S',
      address: 'D1',
      input: '=STOCKHISTORY(A1,45292,45294)',
      saved: 'Date',
      savedArray: [
        ['Date', 'Close'],
        [45292, 370.87],
        [45293, 367.94],
      ],
    },
    { sheet: 'S', address: 'G1', input: '=SUM(E2:E3)' },
    { sheet: 'S', address: 'H1', input: '=_FV(A1,"Price")', saved: 415.5 },
    { sheet: 'S', address: 'H2', input: '=CUBEVALUE("Sales","[Measures].[Revenue]")', saved: 1200 },
    { sheet: 'S', address: 'H3', input: '=CUBEVALUE("Sales","[Measures].[Revenue]")' },
  ])
  return engine
}

describe('functions that need the outside world', () => {
  it('keep the values the file was saved with, spilled arrays whole, and formulas read them', () => {
    const engine = loaded()
    expect([v(engine, 'B1'), v(engine, 'B2'), v(engine, 'H1'), v(engine, 'H2')]).toEqual(['1.0842', 108.42, 415.5, 1200])
    expect([v(engine, 'D1'), v(engine, 'E1'), v(engine, 'D3'), v(engine, 'E3')]).toEqual(['Date', 'Close', 45293, 367.94])
    expect(v(engine, 'G1')).toBeCloseTo(370.87 + 367.94, 10)
  })

  it('mark the cells holding such a saved value, the spilled ones too', () => {
    const engine = loaded()
    expect(['B1', 'D1', 'E3', 'H1', 'B2', 'A1'].map((address) => engine.isSavedValue('S', address))).toEqual([true, true, true, true, false, false])
    expect(engine.getCell('S', 'B1').savedValue).toBe(true)
    expect(engine.getCell('S', 'B2').savedValue).toBeUndefined()
  })

  it('are calculated once an input changes, and say why they cannot be here, never #NAME?', () => {
    const engine = loaded()
    engine.setCell('S', 'A1', 'AAPL')
    const value = engine.getValue('S', 'B1')
    expect(value).toBeInstanceOf(CellError)
    expect((value as CellError).code).toBe('#VALUE!')
    expect((value as CellError).message).toMatch(/WEBSERVICE calls a web service/)
    expect(engine.isSavedValue('S', 'B1')).toBe(false)
    expect([v(engine, 'D1'), v(engine, 'E3'), v(engine, 'H1')]).toEqual(['#VALUE!', null, '#VALUE!'])
    // A cell without a saved value shows the reason from the start; one whose inputs did not change keeps its value.
    expect(v(engine, 'H3')).toBe('#VALUE!')
    expect(v(engine, 'H2')).toBe(1200)
  })

  it('are every function Excel knows that the catalogue lacked', () => {
    const names = new Set(functionCatalogue().map((entry) => entry.name))
    for (const name of ['STOCKHISTORY', 'WEBSERVICE', 'FILTERXML', 'CUBEVALUE', 'CUBEMEMBER', 'CUBESET', 'CUBESETCOUNT', 'CUBERANKEDMEMBER', 'CUBEMEMBERPROPERTY', 'CUBEKPIMEMBER', 'RTD', 'GETPIVOTDATA', 'IMAGE', 'TRANSLATE', 'DETECTLANGUAGE', 'FORECAST.ETS', 'GROUPBY', 'PIVOTBY', 'LENB', 'ENCODEURL', 'PERCENTOF', 'ASC', 'DBCS', 'BAHTTEXT']) {
      expect(names.has(name), name).toBe(true)
    }
  })
})

describe('text and web functions calculated here', () => {
  const calc = (formula: string) => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.setCells([
      { sheet: 'S', address: 'A1', input: 10 },
      { sheet: 'S', address: 'A2', input: 30 },
      { sheet: 'S', address: 'A3', input: 60 },
      { sheet: 'S', address: 'Z1', input: formula },
    ])
    return v(engine, 'Z1')
  }

  it('count characters in the byte functions, outside double-byte languages', () => {
    expect([calc('=LENB("Finsheet")'), calc('=LEFTB("Finsheet",3)'), calc('=RIGHTB("Finsheet",5)'), calc('=MIDB("Finsheet",4,2)')]).toEqual([8, 'Fin', 'sheet', 'sh'])
    expect([calc('=FINDB("s","Finsheet")'), calc('=SEARCHB("S","Finsheet")'), calc('=REPLACEB("Finsheet",1,3,"Spread")')]).toEqual([4, 4, 'Spreadsheet'])
  })

  it('encode text for a web address, UTF-8 byte by byte', () => {
    expect(calc('=ENCODEURL("net debt / EBITDA")')).toBe('net%20debt%20%2F%20EBITDA')
    expect(calc('=ENCODEURL("a-b_c.d~é")')).toBe('a-b_c.d~%C3%A9')
  })

  it('give a subset as a share of the whole', () => {
    expect(calc('=PERCENTOF(A1:A2,A1:A3)')).toBe(0.4)
    expect(calc('=PERCENTOF(A1,0)')).toBe('#DIV/0!')
  })
})
