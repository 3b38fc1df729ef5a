import { Engine, columnToLetters } from '@finsheet/formula'
const rows: (string|number)[][] = []
for (let r = 0; r < 1999; r++) { const row: (string|number)[] = []; for (let c = 0; c < 100; c++) { if (c === 0) row.push(r + 1); else if (r === 0) row.push(100 + c); else row.push(`=(${columnToLetters(c - 1)}${r + 1}+${columnToLetters(c)}${r})/2+1`) } rows.push(row) }
const totals: string[] = []; for (let c = 0; c < 100; c++) totals.push(`=SUM(${columnToLetters(c)}1:${columnToLetters(c)}1999)`); rows.push(totals)
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
let t = cpu()
const e = new Engine(); e.addSheet('Sheet1'); e.loadSheet('Sheet1', rows)
console.log('load cpu', cpu() - t)
const time = (f: () => void) => { const s = cpu(); f(); return +(cpu() - s).toFixed(1) }
for (let i = 0; i < 30; i++) {
  const a = time(() => e.insertRows('Sheet1', 1000, 1))
  const b = time(() => e.deleteRows('Sheet1', 1000, 1))
  const c = time(() => 0)
  const d = time(() => 0)
  console.log(JSON.stringify({ a, b, c, d }), e.getValue('Sheet1', 'CV2000'))
}
console.log((globalThis as any).__t)
