import type { Chart } from '@finsheet/contracts'

/**
 * The charts of a workbook as this browser has it open: the service's list answers for what was
 * saved, but the open workbook's own charts and values are ahead of it (edits still on their way),
 * so they win, and charts placed since appear at once. Newest first.
 */
export function withLocalCharts(saved: readonly Chart[], local: readonly Chart[] | null): Chart[] {
  if (!local) return [...saved]
  const localIds = new Set(local.map((chart) => chart.id))
  // A saved chart the open workbook no longer has was deleted here: it is gone once the edit lands.
  const savedOnly = saved.filter((chart) => !localIds.has(chart.id) && !chart.anchor)
  return [...local, ...savedOnly].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}
