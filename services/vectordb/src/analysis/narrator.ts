import type { AnalysisFinding, WorkbookAnalysis } from '@finsheet/contracts'

/**
 * Who writes an analysis's summary. The rules write it offline; a language model can take over
 * through this interface (given the findings, it answers prose) without changing the analysis, which
 * stays rule-based and checkable either way.
 */
export interface AnalysisNarrator {
  /** Shown as the analysis's `narrator`: 'rules', or the model's name. */
  readonly name: string
  narrate(analysis: Omit<WorkbookAnalysis, 'summary' | 'narrator'>): Promise<string>
}

const named = (finding: AnalysisFinding) => `${finding.label ? `${finding.label} ` : ''}(${finding.sheet}!${finding.address})`

/** The summary the rules write: a few sentences naming the findings that matter most. */
export class RuleNarrator implements AnalysisNarrator {
  readonly name = 'rules'

  async narrate(analysis: Omit<WorkbookAnalysis, 'summary' | 'narrator'>): Promise<string> {
    const { stats } = analysis
    const sentences = [`${analysis.workbookName} has ${stats.formulas} formula${stats.formulas === 1 ? '' : 's'} and ${stats.inputs} typed number${stats.inputs === 1 ? '' : 's'} over ${stats.sheets} sheet${stats.sheets === 1 ? '' : 's'}.`]
    if (analysis.keyDrivers.length > 0) {
      const [first, ...rest] = analysis.keyDrivers
      sentences.push(`Its key driver is ${named(first)}, which ${first.reach} formula cell${first.reach === 1 ? '' : 's'} depend on${rest.length > 0 ? `; then ${rest.slice(0, 2).map(named).join(' and ')}` : ''}.`)
    }
    if (analysis.outputs.length > 0) sentences.push(`Its results include ${analysis.outputs.slice(0, 3).map(named).join(', ')}.`)
    if (analysis.errors.length > 0) {
      const origins = analysis.errors.filter((finding) => !finding.reason.startsWith('Shows'))
      sentences.push(`${analysis.errors.length} cell${analysis.errors.length === 1 ? ' shows' : 's show'} an error${origins.length > 0 ? `, starting at ${origins.slice(0, 2).map(named).join(' and ')}` : ''}.`)
    } else if (analysis.analysisType === 'overview' || analysis.analysisType === 'errors') sentences.push('No cell shows an error.')
    if (analysis.hardcodedNumbers.length > 0) sentences.push(`${analysis.hardcodedNumbers.length} number${analysis.hardcodedNumbers.length === 1 ? ' is' : 's are'} typed where formulas are expected, such as ${named(analysis.hardcodedNumbers[0])}: check they follow the inputs.`)
    return sentences.join(' ')
  }
}
