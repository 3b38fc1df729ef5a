/**
 * audit_workbook: the workbook checked rule by rule (see workbook-audit.ts), every sheet or one,
 * without writing anything; the findings come back errors first, each with its cells and a fix.
 */
import { auditWorkbook } from '../workbook-audit.js'
import { resolveSheet } from '../targets.js'
import { count, defineTool } from '../tool-kit.js'

export const auditWorkbookTool = defineTool({
  name: 'audit_workbook',
  writes: false,
  attempt: (args) => (args.sheet ? `Auditing ${args.sheet}` : 'Auditing the workbook'),
  run(args, context) {
    const sheet = args.sheet === undefined ? undefined : resolveSheet(context.state, args.sheet)
    const report = auditWorkbook(context, sheet)
    const { error, warning, info } = report.counts
    return {
      summary: `Audited ${sheet ? sheet.name : 'the workbook'}: ${count(error, 'error')}, ${count(warning, 'warning')}${info > 0 ? `, ${count(info, 'note')}` : ''}`,
      content: { ...report },
    }
  },
})
