/**
 * Theme colours in an exported file. The file carries exceljs's theme part (Office's), not the theme of
 * the file a workbook was imported from, so a cell's theme colour is written as the theme's only where
 * that theme gives the colour the cell shows; elsewhere the colour itself is written, and the cell
 * looks the same either way.
 */
import { createRequire } from 'node:module'
import type { ThemeColor } from '@finsheet/contracts'
import { readThemeColors, resolveColor } from '../xlsx/xlsx-styles.js'

let writtenTheme: string[] | undefined

/** The colours of the theme part every exported file carries. */
function themeOfExport(): string[] {
  writtenTheme ??= readThemeColors(createRequire(import.meta.url)('exceljs/lib/xlsx/xml/theme1.js') as string)
  return writtenTheme
}

/** Whether `theme` in an exported file is the colour `css` the cell shows. */
export function themeColorHolds(theme: ThemeColor, css: string | undefined): boolean {
  if (!css) return false
  return resolveColor({ theme: theme.theme, ...(theme.tint !== undefined ? { tint: theme.tint } : {}) }, themeOfExport()) === css.trim().toUpperCase()
}
