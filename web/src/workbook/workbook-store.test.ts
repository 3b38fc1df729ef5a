import { describe, expect, it } from 'vitest'
import type { AppliedChange, WorkbookSnapshot } from './workbook-store'
import { WorkbookStore } from './workbook-store'

const at = (address: string) => {
  const m = /^([A-Z]+)(\d+)$/.exec(address)!
  return { col: m[1].charCodeAt(0) - 65, row: Number(m[2]) - 1 }
}

function open(snapshot: Partial<WorkbookSnapshot> = {}) {
  return new WorkbookStore({ id: 'wb', sheets: [{ name: 'Sheet1', cells: {} }], ...snapshot })
}

describe('WorkbookStore', () => {
  it('computes values at once and shows them formatted', () => {
    const store = open()
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '10' }, { address: 'A2', input: '=A1*1.5' }] })
    expect(store.getValue('Sheet1', at('A2'))).toBe(15)
    expect(store.getDisplay('Sheet1', at('A2'))).toBe('15')
    const cell = store.dataSource('Sheet1')!.getCell(0, 1)
    expect(cell).toMatchObject({ text: '15', align: 'right', numeric: true })
    store.dispatch({ type: 'format-cells', sheet: 'Sheet1', ranges: ['A2'], format: '$#,##0.00' })
    expect(store.getDisplay('Sheet1', at('A2'))).toBe('$15.00')
  })

  it('iterates circular references when the workbook says so, as the server does', () => {
    // Interest on the average of opening and closing debt, where closing debt depends on the interest.
    const cells = { A1: { input: '100' }, A2: { input: '=A1-10-A3' }, A3: { input: '=0.1*(A1+A2)/2' } }
    const iterated = open({ sheets: [{ name: 'Sheet1', cells }], iterativeCalculation: true })
    // Fixed point: A3 = 0.05 * (190 - A3), so A3 = 9.5 / 1.05.
    expect(iterated.getValue('Sheet1', at('A3'))).toBeCloseTo(9.5 / 1.05, 3)
    // Not iterated, as in Excel: the loop is not calculated, its cells show 0, and the status bar lists it.
    const looped = open({ sheets: [{ name: 'Sheet1', cells }] })
    expect(looped.getValue('Sheet1', at('A3'))).toBe(0)
    expect(looped.circularReferences()).toEqual([['Sheet1!A2', 'Sheet1!A3']])
    expect(iterated.circularReferences()).toEqual([])
  })

  it('calculates references to another workbook from the values the snapshot keeps of it, through edits', () => {
    const budget = { target: 'file:///C:/Models/Budget.xlsx', sheets: [{ name: 'Sheet1', cells: { C8: 1250.5, A1: 1, A2: 2, A3: 3, B3: { error: '#DIV/0!' } } }] }
    const cells = { A1: { input: '=[1]Sheet1!$C$8' }, A2: { input: '=SUM([1]Sheet1!A1:A3)*B1' }, A3: { input: '=[1]Sheet1!B3' }, A4: { input: '=[1]Sheet1!Z99' }, B1: { input: '2' } }
    const store = open({ sheets: [{ name: 'Sheet1', cells }], externalLinks: [budget] })
    expect(['A1', 'A2', 'A3', 'A4'].map((address) => store.getDisplay('Sheet1', at(address)))).toEqual(['1250.5', '12', '#DIV/0!', '#REF!'])
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B1', input: '3' }] })
    expect(store.getValue('Sheet1', at('A2'))).toBe(18)
    expect(store.snapshot().externalLinks).toEqual([budget])
    // Without the kept values the link cannot be read, as in Excel when the source is missing.
    expect(open({ sheets: [{ name: 'Sheet1', cells }] }).getDisplay('Sheet1', at('A1'))).toBe('#REF!')
  })

  it('shows errors as errors and text on the left', () => {
    const store = open()
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B1', input: '=1/0' }, { address: 'B2', input: 'Revenue' }] })
    expect(store.dataSource('Sheet1')!.getCell(1, 0)).toMatchObject({ text: '#DIV/0!', error: true })
    expect(store.dataSource('Sheet1')!.getCell(1, 1)).toMatchObject({ text: 'Revenue', align: 'left' })
  })

  it('undoes and redoes edits, styles and widths', () => {
    const store = open()
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '1' }] })
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '2' }] })
    store.dispatch({ type: 'format-cells', sheet: 'Sheet1', ranges: ['A1:B2'], style: { bold: true } })
    store.dispatch({ type: 'resize-column', sheet: 'Sheet1', column: 0, width: 180 })
    expect(store.getStyle('Sheet1', at('B2'))).toEqual({ bold: true })
    expect(store.undoLabel).toBe('Resize a column on Sheet1')
    store.undo()
    expect(store.sheet('Sheet1')!.columnWidths.get(0)).toBeUndefined()
    store.undo()
    expect(store.getStyle('Sheet1', at('B2'))).toBeUndefined()
    store.undo()
    expect(store.getInput('Sheet1', at('A1'))).toBe('1')
    store.redo()
    expect(store.getInput('Sheet1', at('A1'))).toBe('2')
    store.undo()
    store.undo()
    expect(store.getInput('Sheet1', at('A1'))).toBe('')
    expect(store.canUndo).toBe(false)
    store.redo()
    expect(store.getInput('Sheet1', at('A1'))).toBe('1')
  })

  it('merges style patches and clears a style field with null', () => {
    const store = open()
    store.dispatch({ type: 'format-cells', sheet: 'Sheet1', ranges: ['A1'], style: { bold: true, color: '#ff0000' } })
    store.dispatch({ type: 'format-cells', sheet: 'Sheet1', ranges: ['A1'], style: { italic: true, color: null } })
    expect(store.getStyle('Sheet1', at('A1'))).toEqual({ bold: true, italic: true })
  })

  it('rejects a command for a missing sheet or a bad address and changes nothing', () => {
    const store = open()
    const before = store.revision
    expect(() => store.dispatch({ type: 'set-cells', sheet: 'Nope', cells: [{ address: 'A1', input: '1' }] })).toThrow('Sheet not found: Nope')
    expect(() => store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A0', input: '1' }] })).toThrow('Invalid cell address: "A0"')
    expect(store.revision).toBe(before)
    expect(store.canUndo).toBe(false)
  })

  it('rolls a failing batch back whole', () => {
    const store = open()
    expect(() =>
      store.dispatch({
        type: 'batch',
        label: 'paste',
        commands: [
          { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: 'kept?' }] },
          { type: 'set-cells', sheet: 'Missing', cells: [{ address: 'A1', input: 'x' }] },
        ],
      }),
    ).toThrow()
    expect(store.getInput('Sheet1', at('A1'))).toBe('')
  })

  it('adds, renames and deletes sheets with formulas following, and undoes the delete', () => {
    const store = open()
    store.dispatch({ type: 'add-sheet', name: 'Sheet2' })
    store.dispatch({ type: 'set-cells', sheet: 'Sheet2', cells: [{ address: 'A1', input: '7' }] })
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '=Sheet2!A1*2' }] })
    store.dispatch({ type: 'rename-sheet', from: 'Sheet2', to: 'Inputs' })
    expect(store.getInput('Sheet1', at('A1'))).toBe('=Inputs!A1*2')
    expect(store.getValue('Sheet1', at('A1'))).toBe(14)
    store.dispatch({ type: 'delete-sheet', name: 'Inputs' })
    expect(store.sheetNames).toEqual(['Sheet1'])
    expect(store.getDisplay('Sheet1', at('A1'))).toBe('#REF!')
    store.undo()
    expect(store.sheetNames).toEqual(['Sheet1', 'Inputs'])
    expect(store.getInput('Sheet1', at('A1'))).toBe('=Inputs!A1*2')
    expect(store.getValue('Sheet1', at('A1'))).toBe(14)
    expect(() => store.dispatch({ type: 'add-sheet', name: 'Inputs' })).toThrow('There is already a sheet named Inputs')
  })

  it('inserts and deletes rows, moving styles, and undo restores broken references', () => {
    const store = open()
    store.dispatch({
      type: 'set-cells',
      sheet: 'Sheet1',
      cells: [{ address: 'A1', input: '1' }, { address: 'A2', input: '2' }, { address: 'A3', input: '=A2*10' }],
    })
    store.dispatch({ type: 'format-cells', sheet: 'Sheet1', ranges: ['A3'], style: { bold: true } })
    store.dispatch({ type: 'insert-rows', sheet: 'Sheet1', at: 1, count: 1 })
    expect(store.getInput('Sheet1', at('A4'))).toBe('=A3*10')
    expect(store.getStyle('Sheet1', at('A4'))).toEqual({ bold: true })
    store.undo()
    expect(store.getInput('Sheet1', at('A3'))).toBe('=A2*10')
    store.dispatch({ type: 'delete-rows', sheet: 'Sheet1', at: 1, count: 1 })
    expect(store.getDisplay('Sheet1', at('A2'))).toBe('#REF!')
    store.undo()
    expect(store.getInput('Sheet1', at('A2'))).toBe('2')
    expect(store.getInput('Sheet1', at('A3'))).toBe('=A2*10')
    expect(store.getValue('Sheet1', at('A3'))).toBe(20)
  })

  it('tells listeners about every change with its inverse', () => {
    const store = open()
    const seen: AppliedChange[] = []
    store.onChange((change) => seen.push(change))
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'C3', input: 'x' }] })
    store.undo()
    expect(seen.map((c) => c.origin)).toEqual(['user', 'undo'])
    expect(seen[0].inverse).toEqual({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'C3', input: '' }] })
  })

  it("shows the server's value until a local edit changes the cell again", () => {
    const store = open({ sheets: [{ name: 'Sheet1', cells: { A1: { input: '2' }, A2: { input: '=A1*2' } } }] })
    store.applyServerChanges([{ sheet: 'Sheet1', address: 'A2', value: 5, display: '5' }])
    expect(store.getDisplay('Sheet1', at('A2'))).toBe('5')
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '3' }] })
    expect(store.getDisplay('Sheet1', at('A2'))).toBe('6')
    store.applyServerChanges([{ sheet: 'Sheet1', address: 'B1', input: 'from the assistant' }])
    expect(store.getInput('Sheet1', at('B1'))).toBe('from the assistant')
    expect(store.canUndo).toBe(true)
    expect(store.undoLabel).toBe('Edit Sheet1!A1')
  })

  it('opens a large block quickly through the bulk path and grows the grid to fit', () => {
    const rows = Array.from({ length: 2000 }, (_, r) => Array.from({ length: 60 }, (_, c) => r * 100 + c))
    const store = open({ sheets: [{ name: 'Data', cells: {}, rows }] })
    const source = store.dataSource('Data')!
    expect(source.rowCount).toBe(2001)
    expect(source.columnCount).toBe(61)
    expect(store.getDisplay('Data', { col: 59, row: 1999 })).toBe('199959')
    expect(store.lastUsedCell('Data')).toEqual({ col: 59, row: 1999 })
  })

  it('snapshots inputs, styles, formats and widths, and reopens the same', () => {
    const store = open()
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B2', input: '=1+1' }, { address: 'C3', input: '15%' }] })
    store.dispatch({ type: 'format-cells', sheet: 'Sheet1', ranges: ['B2'], style: { italic: true }, format: '0.00' })
    store.dispatch({ type: 'resize-column', sheet: 'Sheet1', column: 2, width: 150 })
    const snapshot = store.snapshot()
    expect(snapshot.sheets[0].cells).toEqual({ B2: { input: '=1+1', style: { italic: true }, format: '0.00' }, C3: { input: '15%' } })
    const again = new WorkbookStore(snapshot)
    expect(again.getDisplay('Sheet1', at('B2'))).toBe('2.00')
    expect(again.getDisplay('Sheet1', at('C3'))).toBe('15%')
    expect(again.sheet('Sheet1')!.columnWidths.get(2)).toBe(150)
  })
})

describe('merged cells', () => {
  it('merges keeping the top-left content, unmerges on undo with the content back', () => {
    const store = open({ sheets: [{ name: 'Sheet1', cells: { A1: { input: 'Title' }, B1: { input: 'lost' } } }] })
    store.dispatch({ type: 'merge-cells', sheet: 'Sheet1', range: 'A1:C1' })
    expect(store.getInput('Sheet1', at('B1'))).toBe('')
    expect(store.dataSource('Sheet1')!.merges!.at(at('C1'))).toEqual({ startCol: 0, startRow: 0, endCol: 2, endRow: 0 })
    expect(() => store.dispatch({ type: 'merge-cells', sheet: 'Sheet1', range: 'C1:D2' })).toThrow('overlaps a merged range')
    store.undo()
    expect(store.getInput('Sheet1', at('B1'))).toBe('lost')
    expect(store.dataSource('Sheet1')!.merges!.size).toBe(0)
    store.redo()
    expect(store.snapshot().sheets[0].merges).toEqual(['A1:C1'])
  })

  it('moves merges with inserted and deleted rows, and undo puts them back', () => {
    const store = open({ sheets: [{ name: 'Sheet1', cells: {}, merges: ['A3:B5', 'D1:D2'] }] })
    store.dispatch({ type: 'insert-rows', sheet: 'Sheet1', at: 3, count: 2 })
    expect(store.snapshot().sheets[0].merges).toEqual(['D1:D2', 'A3:B7'])
    store.dispatch({ type: 'delete-rows', sheet: 'Sheet1', at: 0, count: 3 })
    expect(store.snapshot().sheets[0].merges).toEqual(['A1:B4'])
    store.undo()
    expect(store.snapshot().sheets[0].merges).toEqual(['D1:D2', 'A3:B7'])
  })
})

describe('sheet order', () => {
  it('moves a sheet and moves it back on undo', () => {
    const store = open({ sheets: [{ name: 'A', cells: {} }, { name: 'B', cells: {} }, { name: 'C', cells: {} }] })
    store.dispatch({ type: 'move-sheet', name: 'C', index: 0 })
    expect(store.sheetNames).toEqual(['C', 'A', 'B'])
    store.dispatch({ type: 'move-sheet', name: 'C', index: 99 })
    expect(store.sheetNames).toEqual(['A', 'B', 'C'])
    store.undo()
    expect(store.sheetNames).toEqual(['C', 'A', 'B'])
    expect(() => store.dispatch({ type: 'move-sheet', name: 'Z', index: 0 })).toThrow('Sheet not found: Z')
  })

  it('reads what a chart of a range would draw, as the values stand now', () => {
    const store = open({ sheets: [{ name: 'Sheet1', cells: { A1: { input: 'Year' }, B1: { input: 'Units' }, A2: { input: '2024' }, B2: { input: '40' }, A3: { input: '2025' }, B3: { input: '=B2+15' } } }] })
    expect(store.chartData('Sheet1', 'A1:B3')).toEqual({ labels: ['2024', '2025'], series: [{ name: 'Units', values: [40, 55] }] })
    store.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B2', input: '50' }] })
    expect(store.chartData('Sheet1', 'A1:B3').series[0].values).toEqual([50, 65])
    expect(store.chartData('Nowhere', 'A1:B3')).toEqual({ labels: [], series: [] })
  })

  it('calculates with the names and tables the workbook holds, as the server does, and keeps them in its snapshot', () => {
    const cells = {
      A1: { input: 'Region' },
      B1: { input: 'Units' },
      A2: { input: 'North' },
      B2: { input: '10' },
      A3: { input: 'South' },
      B3: { input: '30' },
      D1: { input: '=SUM(Sales[Units])*Rate' },
      D2: { input: '=ROWS(Sales[#All])' },
      E1: { input: '0.5' },
    }
    const store = open({
      sheets: [{ name: 'Data', cells }],
      definedNames: [{ name: 'Rate', formula: '=Data!$E$1' }],
      tables: [{ name: 'Sales', sheet: 'Data', range: 'A1:B3', headerRow: true, totalsRow: false, columns: ['Region', 'Units'] }],
    })
    expect(store.getValue('Data', at('D1'))).toBe(20)
    expect(store.getValue('Data', at('D2'))).toBe(3)
    // a row inserted inside the table grows it, here as on the server
    store.dispatch({ type: 'insert-rows', sheet: 'Data', at: 2, count: 1 })
    store.dispatch({ type: 'set-cells', sheet: 'Data', cells: [{ address: 'B3', input: '60' }] })
    expect(store.getValue('Data', at('D1'))).toBe(50)
    const snapshot = store.snapshot()
    expect(snapshot.definedNames).toEqual([{ name: 'Rate', formula: '=Data!$E$1' }])
    expect(snapshot.tables).toEqual([{ name: 'Sales', sheet: 'Data', range: 'A1:B4', headerRow: true, totalsRow: false, columns: ['Region', 'Units'] }])
    expect(open({ sheets: [{ name: 'Data', cells }] }).getValue('Data', at('D1'))).toMatchObject({ code: '#REF!' })
  })
})

describe('rows fitted to their text', () => {
  const wrapped = { wrap: true }
  const long = 'Revenue growth assumed flat after year five'

  it('grows a row holding wrapped text, follows the column width, and gives way to a height of its own', () => {
    const store = new WorkbookStore({ id: 'w', sheets: [{ name: 'Model', cells: {} }] })
    const heightOf = (row: number) => store.sheet('Model')!.rowHeights.get(row)
    store.dispatch({ type: 'set-cells', sheet: 'Model', cells: [{ address: 'B3', input: long, style: wrapped }] })
    // 100 pixels wide, 7 a character: five lines
    expect(heightOf(2)).toBe(83)
    store.dispatch({ type: 'resize-column', sheet: 'Model', column: 1, width: 400 })
    expect(heightOf(2)).toBeUndefined()
    store.undo()
    expect(heightOf(2)).toBe(83)
    store.dispatch({ type: 'set-sheet-view', sheet: 'Model', rows: [{ from: 2, to: 2, height: 30 }] })
    expect(heightOf(2)).toBe(30)
  })

  it('fits rows when wrap is turned on or off, moves the height with an inserted row, and fits a loaded workbook', () => {
    const store = new WorkbookStore({ id: 'w', sheets: [{ name: 'Model', cells: { A1: { input: long } } }] })
    const heightOf = (row: number) => store.sheet('Model')!.rowHeights.get(row)
    expect(heightOf(0)).toBeUndefined()
    store.dispatch({ type: 'format-cells', sheet: 'Model', ranges: ['A1'], style: { wrap: true } })
    expect(heightOf(0)).toBe(83)
    store.dispatch({ type: 'insert-rows', sheet: 'Model', at: 0, count: 2 })
    expect(heightOf(0)).toBeUndefined()
    expect(heightOf(2)).toBe(83)
    store.dispatch({ type: 'format-cells', sheet: 'Model', ranges: ['A3'], style: { wrap: false } })
    expect(heightOf(2)).toBeUndefined()

    const loaded = new WorkbookStore({ id: 'w', sheets: [{ name: 'Notes', cells: { C2: { input: long, style: wrapped } } }] })
    expect(loaded.sheet('Notes')!.rowHeights.get(1)).toBe(83)
  })

  it("shows cells naming no font in the workbook's default font, and cells naming theirs in their own", () => {
    const cells = { A1: { input: 'Revenue' }, A2: { input: 'Title', style: { fontFamily: 'Arial', fontSize: 16, bold: true } }, A3: { input: '5', style: { italic: true } } }
    const store = open({ sheets: [{ name: 'Sheet1', cells }], defaultFont: { family: 'Cambria', size: 10 } })
    const source = store.dataSource('Sheet1')!
    expect(source.getCell(0, 0)?.style).toEqual({ fontFamily: 'Cambria', fontSize: 10 })
    expect(source.getCell(0, 1)?.style).toEqual({ fontFamily: 'Arial', fontSize: 16, bold: true })
    expect(source.getCell(0, 2)?.style).toEqual({ italic: true, fontFamily: 'Cambria', fontSize: 10 })
    // an empty cell stays empty; a workbook without a font of its own shows the app's
    expect(source.getCell(5, 5)).toBeUndefined()
    expect(open({ sheets: [{ name: 'Sheet1', cells }] }).dataSource('Sheet1')!.getCell(0, 0)?.style).toBeUndefined()
  })
})
