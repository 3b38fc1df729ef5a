import { Engine, columnToLetters } from '@finsheet/formula'
import type { CellUpdate } from '@finsheet/formula'
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const rows: (string|number)[][] = []
for (let i = 1; i <= 100_000; i++) rows.push([i])
rows[0].push('=SUM(A1:A100000)')
const updates: CellUpdate[] = []
rows.forEach((row, r) => row.forEach((input, c) => updates.push({ sheet: 'Sheet1', address: `${columnToLetters(c)}${r + 1}`, input })))
for (let k = 0; k < 8; k++) {
  let t = cpu(); const a = new Engine(); a.addSheet('Sheet1'); a.loadSheet('Sheet1', rows); const load = cpu() - t
  t = cpu(); const b = new Engine(); b.addSheet('Sheet1'); b.setCells(updates); const set = cpu() - t
  console.log(load.toFixed(1), set.toFixed(1), (set / load).toFixed(2))
}
console.log((globalThis as any).__s)
