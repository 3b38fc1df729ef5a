/**
 * Run by the formula benchmark in a fresh process: builds one sheet of N numbers (`sheet`), or the same
 * numbers in a plain array (`array`), lets go of the inputs, and prints the bytes of every object the
 * process then keeps, summed from a heap snapshot. Two such processes that differ only in N differ only
 * by what those N numbers cost: the engine's code, its function table and the process's own objects are
 * the same in both, and neither compiled code nor garbage counts, as they do in heapUsed.
 *
 *   node --expose-gc … bench/sheet-heap.ts <sheet|array> <N>
 */
import { getHeapSnapshot } from 'node:v8'
import { Engine } from '@finsheet/formula'

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[] } }
  nodes: number[]
}

async function keptBytes(): Promise<number> {
  const chunks: Buffer[] = []
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer)
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as HeapSnapshot
  const fields = snapshot.snapshot.meta.node_fields
  const selfSize = fields.indexOf('self_size')
  let total = 0
  for (let i = selfSize; i < snapshot.nodes.length; i += fields.length) total += snapshot.nodes[i]
  return total
}

const [kind, count] = process.argv.slice(2)
const cells = Number(count)
if ((kind !== 'sheet' && kind !== 'array') || !Number.isInteger(cells) || cells <= 0) {
  console.error('usage: sheet-heap.ts <sheet|array> <N>')
  process.exit(2)
}
let rows: number[][] | null = Array.from({ length: cells }, (_, i) => [i + 1.5])
let kept: Engine | number[]
if (kind === 'sheet') {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.loadSheet('Sheet1', rows)
  kept = engine
} else {
  const plain = new Array<number>(cells)
  for (let i = 0; i < cells; i++) plain[i] = rows[i][0]
  kept = plain
}
rows = null
globalThis.gc?.()
const bytes = await keptBytes()
const first = kept instanceof Engine ? kept.getValue('Sheet1', 'A1') : kept[0]
if (first !== 1.5) throw new Error('The numbers read back wrong')
console.log(JSON.stringify({ bytes }))
