export * from './common.js'
export * from './users.js'
export * from './gateway.js'
export * from './spreadsheet.js'
