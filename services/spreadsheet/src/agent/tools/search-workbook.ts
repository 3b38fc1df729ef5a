/** search_workbook: where labels, headers, names, text and formulas matching a query live. */
import { DEFAULT_SEARCH_LIMIT } from '@finsheet/contracts'
import { searchWorkbook } from '../search.js'
import { count, defineTool, TextFlags } from '../tool-kit.js'

export const searchWorkbookTool = defineTool({
  name: 'search_workbook',
  writes: false,
  attempt: (args) => `Searching for “${args.query.slice(0, 60)}”`,
  async run(args, context) {
    const hits = await searchWorkbook(context.session, args.query, DEFAULT_SEARCH_LIMIT)
    const flags = new TextFlags()
    for (const hit of hits) if (hit.kind === 'text' || hit.kind === 'label' || hit.kind === 'header') flags.check(hit.where, hit.text)
    return {
      summary: `Searching for “${args.query.slice(0, 60)}”: ${count(hits.length, 'match', 'matches')}`,
      content: {
        query: args.query,
        hits: hits.map((hit) => ({ kind: hit.kind, where: hit.where, text: hit.text, score: hit.score })),
        ...(hits.length === 0 ? { note: 'Nothing matched; try other words, or get_workbook_overview for the labels and headers.' } : {}),
        ...flags.fields(),
      },
    }
  },
})
