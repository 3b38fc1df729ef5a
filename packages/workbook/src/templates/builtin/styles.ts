import type { CellStyle } from '@finsheet/contracts'

/** The look the built-in templates share. */
export const TITLE: CellStyle = { bold: true, fontSize: 14 }
export const NOTE: CellStyle = { italic: true, color: '#666666' }
export const HEADER: CellStyle = { bold: true, fill: '#E8EEF7' }
export const INPUT: CellStyle = { color: '#1F4FB4' }
export const TOTAL: CellStyle = { bold: true }
export const HIGHLIGHT: CellStyle = { bold: true, fill: '#FFF4CE' }

export const MONEY = '#,##0'
export const MONEY_2 = '#,##0.00'
export const PERCENT = '0.0%'
export const MULTIPLE = '0.00"x"'
export const DECIMAL_1 = '0.0'
export const WHOLE = '0'

/** A wide label column and five projection columns. */
export const MODEL_WIDTHS: Record<string, number> = { '0': 320, '1': 120, '2': 120, '3': 120, '4': 120, '5': 120 }
