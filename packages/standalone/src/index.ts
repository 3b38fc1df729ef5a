export { startAllInOne } from './all-in-one.js'
export type { AllInOne, AllInOneOptions } from './all-in-one.js'
