/**
 * A set of cell positions (sheet id, row, column) for one batch of edits: open addressing over typed
 * arrays, sized for the batch up front, so that a paste or import batch of 100,000 cells dedupes in a
 * few milliseconds (a Set of large numbers rehashes and allocates as it grows).
 */
export class PositionSet {
  private readonly keys: Float64Array
  private readonly mask: number

  constructor(capacity: number) {
    let size = 16
    while (size < capacity * 2) size *= 2
    this.keys = new Float64Array(size).fill(-1)
    this.mask = size - 1
  }

  /** Adds the position; false when it was there already. */
  add(sheetId: number, row: number, col: number): boolean {
    return this.find(sheetId, row, col, true)
  }

  has(sheetId: number, row: number, col: number): boolean {
    return !this.find(sheetId, row, col, false)
  }

  /** Probes for the key; answers true when it was absent (and adds it when `insert`). */
  private find(sheetId: number, row: number, col: number, insert: boolean): boolean {
    const key = sheetId * 2 ** 35 + row * 16_384 + col
    const keys = this.keys
    let slot = (Math.imul(row, 0x9e3779b1) ^ Math.imul(col + 1, 0x85ebca77) ^ Math.imul(sheetId + 1, 0xc2b2ae3d)) & this.mask
    while (true) {
      const found = keys[slot]
      if (found === key) return false
      if (found === -1) {
        if (insert) keys[slot] = key
        return true
      }
      slot = (slot + 1) & this.mask
    }
  }
}
