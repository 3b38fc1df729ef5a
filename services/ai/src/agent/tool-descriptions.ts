/**
 * What a tool call sets out to do, in a sentence for the assistant panel, worked out from its name
 * and arguments before it runs ("Reading Revenue!A1:H40"). The arguments come from the model and may
 * be anything: whatever cannot be read falls back to naming the tool.
 */
import type { AgentToolName } from '@finsheet/contracts'

type Args = Record<string, unknown>

const text = (value: unknown, max = 60): string | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const trimmed = value.trim()
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed
}

const plural = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`

/** A target as people read it: "Revenue!A1:H40", "row “EBITDA” on Model", "EBITDA × FY2027 on Model". */
function target(sheet: unknown, where: unknown): string {
  const sheetName = text(sheet, 40)
  const address = text(where)
  if (address !== undefined) {
    if (address.includes('!') || sheetName === undefined) return address
    return `${sheetName}!${address}`
  }
  if (where && typeof where === 'object') {
    const { row, column } = where as { row?: unknown; column?: unknown }
    const rowLabel = text(row, 40)
    const columnLabel = text(column, 40)
    const on = sheetName === undefined ? '' : ` on ${sheetName}`
    if (rowLabel !== undefined && columnLabel !== undefined) return `${rowLabel} × ${columnLabel}${on}`
    if (rowLabel !== undefined) return `row “${rowLabel}”${on}`
    if (columnLabel !== undefined) return `column “${columnLabel}”${on}`
  }
  return sheetName ?? 'the workbook'
}

const describers: { [Name in AgentToolName]: (args: Args) => string } = {
  get_workbook_overview: () => 'Looking over the workbook',
  read_range: (args) => `Reading ${target(args.sheet, args.range)}`,
  write_cells: (args) => {
    const cells = Array.isArray(args.cells) ? args.cells : []
    if (cells.length === 1) return `Writing ${target(args.sheet, (cells[0] as Args | null)?.address)}`
    return `Writing ${plural(cells.length, 'cell')}${text(args.sheet, 40) ? ` on ${text(args.sheet, 40)}` : ''}`
  },
  fill_formula: (args) => `Filling ${target(args.sheet, args.source)} into ${target(undefined, args.target)}`,
  move_cells: (args) => `Moving ${target(args.sheet, args.range)} to ${text(args.to) ?? 'another place'}`,
  validate_formula: (args) => `Checking ${text(args.formula) ?? 'a formula'} at ${target(args.sheet, args.address)}`,
  modify_structure: (args) => {
    const sheet = text(args.sheet, 40)
    const count = typeof args.count === 'number' && args.count > 0 ? args.count : 1
    const at = text(args.at, 40)
    const before = at === undefined ? '' : ` before ${/^\d+$/.test(at) ? `row ${at}` : at}`
    const on = sheet === undefined ? '' : ` on ${sheet}`
    switch (args.action) {
      case 'insert_rows':
        return `Inserting ${plural(count, 'row')}${on}${before}`
      case 'delete_rows':
        return `Deleting ${plural(count, 'row')}${on}${at === undefined ? '' : ` from ${/^\d+$/.test(at) ? `row ${at}` : at}`}`
      case 'insert_columns':
        return `Inserting ${plural(count, 'column')}${on}${before}`
      case 'delete_columns':
        return `Deleting ${plural(count, 'column')}${on}${at === undefined ? '' : ` from ${at}`}`
      case 'add_sheet':
        return `Adding sheet ${text(args.name, 40) ?? ''}`.trim()
      case 'rename_sheet':
        return `Renaming sheet ${sheet ?? ''} to ${text(args.name, 40) ?? '?'}`.replace('  ', ' ')
      case 'delete_sheet':
        return `Deleting sheet ${sheet ?? ''}`.trim()
      default:
        return 'Changing the workbook’s structure'
    }
  },
  format_range: (args) => `Formatting ${target(args.sheet, args.range)}`,
  set_sheet_view: (args) => `Changing the layout of ${text(args.sheet, 40) ?? 'a sheet'}`,
  search_workbook: (args) => `Searching for “${text(args.query) ?? ''}”`,
  trace_dependencies: (args) => {
    const what = args.direction === 'dependents' ? 'dependents' : args.direction === 'both' ? 'precedents and dependents' : 'precedents'
    return `Tracing the ${what} of ${target(args.sheet, args.address)}`
  },
  explain_formula: (args) => `Explaining ${target(args.sheet, args.address)}`,
  audit_workbook: (args) => `Auditing ${text(args.sheet, 40) ?? 'the workbook'}`,
  create_chart: (args) => `Adding a${typeof args.type === 'string' && /^[aeiou]/i.test(args.type) ? 'n' : ''} ${text(args.type, 20) ?? ''} chart of ${target(args.sheet, args.range)}`.replace('  ', ' '),
}

export function describeToolCall(name: string, args: unknown): string {
  if (!Object.hasOwn(describers, name)) return `Calling ${name.slice(0, 60)}`
  const describe = describers[name as AgentToolName]
  const object = args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Args) : {}
  return describe(object)
}
