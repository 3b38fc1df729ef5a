/** Every tool by name: the one table the runner reads. A new tool is a file here and a line below. */
import type { AgentToolName } from '@finsheet/contracts'
import type { AgentTool } from '../tool-kit.js'
import { auditWorkbookTool } from './audit-workbook.js'
import { createChart } from './create-chart.js'
import { explainFormula } from './explain-formula.js'
import { fillFormula } from './fill-formula.js'
import { formatRangeTool } from './format-range.js'
import { getWorkbookOverview } from './get-workbook-overview.js'
import { modifyStructure } from './modify-structure.js'
import { moveCells } from './move-cells.js'
import { readRange } from './read-range.js'
import { searchWorkbookTool } from './search-workbook.js'
import { setSheetView } from './set-sheet-view.js'
import { traceDependencies } from './trace-dependencies.js'
import { validateFormula } from './validate-formula.js'
import { writeCells } from './write-cells.js'

export const AGENT_TOOL_IMPLEMENTATIONS: { [Name in AgentToolName]: AgentTool<Name> } = {
  get_workbook_overview: getWorkbookOverview,
  read_range: readRange,
  write_cells: writeCells,
  fill_formula: fillFormula,
  move_cells: moveCells,
  validate_formula: validateFormula,
  modify_structure: modifyStructure,
  format_range: formatRangeTool,
  set_sheet_view: setSheetView,
  search_workbook: searchWorkbookTool,
  trace_dependencies: traceDependencies,
  explain_formula: explainFormula,
  create_chart: createChart,
  audit_workbook: auditWorkbookTool,
}
