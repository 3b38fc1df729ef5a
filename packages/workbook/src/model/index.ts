// a1.ts lists the engine's A1 helpers it passes on beside its own; one list is enough.
export * from './a1.js'
export {
  toJsonValue,
  cellTypeOf,
  formulaResultOf,
  effectiveFormat,
  displayOf,
  toApiCell,
  toChangedCell,
  clearedCell,
  sameAfterMove,
  sameRecord,
  sameStyle,
  compactStyle,
  pixelsToExcelWidth,
  excelWidthToPixels,
} from './cell-record.js'
export type { CellRecord, SheetRecord } from './cell-record.js'
export { snapshotStats, hasContent, diffSnapshots, sortedCells } from './snapshot.js'
export { chartData } from './chart-data.js'
export type { SheetSnapshot, DefinedNameRecord, TableRecord, ChartRecord, WorkbookSnapshot, StreamedSnapshot, SnapshotStats, SnapshotDiff } from './snapshot.js'
export {
  WorkbookModel,
  cellKey,
  splitKey,
  positionKey,
  newSheetId,
  mergeStyle,
} from './workbook-model.js'
export type {
  SheetRefs,
  ApplyResult,
  StructureMove,
  InputChange,
  CellSource,
  WorkbookSource,
  ModelOptions,
  WorkbookAssembly,
  CellExtras,
  CellParts,
} from './workbook-model.js'
export {
  CommandError,
  commandErrors,
  checkAddress,
  checkRange,
  checkInput,
  checkFormat,
  checkStructure,
  isWellFormedFormat,
  sheetNameProblem,
  checkSheetNames,
  checkNameText,
  nextSheetName,
} from './command-checks.js'
export type { CommandErrorCode } from './command-checks.js'
export { ConditionalFormatEvaluator, mixColours, scaleColour } from './conditional-evaluation.js'
export type { ConditionalLook } from './conditional-evaluation.js'
export { checkRule, checkRules, conditionFormulaProblem, copyRules, movedRules, ruleAnchor, ruleRanges } from './conditional-formats.js'
export type { ConditionalFormatRule, ConditionalThreshold } from './conditional-formats.js'
export { applySheetView, copyView, isEmptyView, isSheetVisible, movedView, restoringSpans, viewCommandOf } from './sheet-view.js'
export type { AxisEntry, SheetViewState } from './sheet-view.js'
export { anchorOf, applyDataValidation, copyValidations, criteriaProblem, isTypedList, typedListFormula, typedListItems, validationAt } from './data-validation.js'
export type { DataValidationRule } from './data-validation.js'
export { judgeValidation, listSourceItems, VALIDATION_DEFAULT_ERROR } from './validation-check.js'
export type { ValidationJudgement, ValidationContext } from './validation-check.js'
export { applyFilter, checkedFilter, filterColumnValues, filterRecords, filteredSpans, movedFilter, rowsFilteredBy, shownText } from './sheet-filter.js'
export type { FilterColumn, FilterValue, SheetFilter } from './sheet-filter.js'
export { MAX_SORTED_CELLS, compareSortValues, repointSortedFormula, sortRangeCommand } from './sort-range.js'
export type { SortKey, SortRequest } from './sort-range.js'
export { checkPageSetup, copyPageSetup, movedPageSetup, samePageSetup } from './page-setup.js'
export { describeCommands, mapSheetRefs, mayRestructure, plural } from './describe.js'
export { rebaseCommands } from './rebase.js'
export type { LayoutStep, RebaseRefusal } from './rebase.js'
export { DEFAULT_CALCULATION, MAX_ITERATIONS_LIMIT, calculationFromAttributes, calculationAttributes, isDefaultCalculation, iterationLimitsProblem, iterationOf, storedIterationOptions } from './calculation.js'
export type { CalculationSettings, CalculationMode } from './calculation.js'
export { externalLinkRecordsOf, externalWorkbooksOf } from './external-links.js'
export type { ExternalCachedValue, ExternalLinkRecord } from './external-links.js'
export { chartRecordOf, chartSpecOf, moveAnchor, movedChart } from './sheet-charts.js'
export { waterfallBars, comboSeriesKind, isWaterfallTotal } from './chart-series.js'
export type { WaterfallBar } from './chart-series.js'
export {
  SERIES_COLORS,
  WATERFALL_COLORS,
  seriesColor,
  niceScale,
  formatChartNumber,
  cartesianLayout,
  pieLayout,
  waterfallLayout,
  comboLayout,
  describeChart,
  seriesStats,
  seriesInColumnsFor,
} from './chart-geometry.js'
export type { Scale, PlotArea, Bar, CartesianSeries, CartesianLayout, PieSlice, SeriesStats, WaterfallLayout, WaterfallLayoutBar, ComboLayout } from './chart-geometry.js'
