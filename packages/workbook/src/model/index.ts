export {
  columnToLetters,
  lettersToColumn,
  formatAddress,
  parseAddress,
  tryParseAddress,
  parseRange,
  tryParseRange,
  formatRange,
  formatSheetPrefix,
  sheetNameNeedsQuotes,
  MAX_ROW,
  MAX_COL,
  normalizeAddress,
  splitSheetReference,
  moveIndex,
  moveAddress,
  moveRange,
  moveRangeText,
  rangesOverlap,
  rangeSize,
} from './a1.js'
export type { CellAddress, RangeAddress, StructuralEdit } from './a1.js'
export {
  toJsonValue,
  cellTypeOf,
  effectiveFormat,
  displayOf,
  toApiCell,
  toChangedCell,
  clearedCell,
  sameRecord,
  sameStyle,
  compactStyle,
  pixelsToExcelWidth,
  excelWidthToPixels,
} from './cell-record.js'
export type { CellRecord, SheetRecord } from './cell-record.js'
export { snapshotStats, hasContent, diffSnapshots, sortedCells } from './snapshot.js'
export type { SheetSnapshot, DefinedNameRecord, ChartRecord, WorkbookSnapshot, SnapshotStats, SnapshotDiff } from './snapshot.js'
