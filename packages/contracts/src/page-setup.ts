import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'
import { MAX_PRINT_SCALE, MIN_PRINT_SCALE } from './constants.js'

/*
 * How a sheet prints, kept with the workbook as Excel keeps it (a sheet's pageSetup and printOptions,
 * its Print_Area and Print_Titles names): what Print and Export PDF lay out.
 */

/** A range of cells to print, in A1 form without `$` ('A1:F40'). */
const PrintAreaText = Type.String({ pattern: '^[A-Z]{1,3}[1-9][0-9]{0,6}:[A-Z]{1,3}[1-9][0-9]{0,6}$', maxLength: 32 })

export const PageSetup = StrictObject({
  orientation: Type.Optional(Type.Union([Type.Literal('portrait'), Type.Literal('landscape')])),
  paperSize: Type.Optional(Type.Union([Type.Literal('letter'), Type.Literal('legal'), Type.Literal('a4'), Type.Literal('a3')])),
  /** Shrink the columns to fit the page's width (then `scale` is not used). */
  fitToWidth: Type.Optional(Type.Boolean()),
  /** Percent of normal size, when not fitting to the width. */
  scale: Type.Optional(Type.Integer({ minimum: MIN_PRINT_SCALE, maximum: MAX_PRINT_SCALE })),
  /** What prints; the used range when absent. */
  printArea: Type.Optional(PrintAreaText),
  /** Rows repeated at the top of every page, 0-based and inclusive. */
  titleRows: Type.Optional(StrictObject({ first: Type.Integer({ minimum: 0, maximum: 1_048_575 }), last: Type.Integer({ minimum: 0, maximum: 1_048_575 }) })),
  /** Columns repeated at the left of every page, 0-based and inclusive. */
  titleColumns: Type.Optional(StrictObject({ first: Type.Integer({ minimum: 0, maximum: 16_383 }), last: Type.Integer({ minimum: 0, maximum: 16_383 }) })),
  gridlines: Type.Optional(Type.Boolean()),
  /** Row numbers and column letters printed. */
  headings: Type.Optional(Type.Boolean()),
})
export type PageSetup = Static<typeof PageSetup>
