/**
 * Formulas as xlsx files store them: functions added to Excel after 2007 carry the `_xlfn.` prefix
 * (and the dynamic-array FILTER and SORT also `_xlws.`), or older readers take them for unknown names.
 * The reverse of the reader's normalizeFormula.
 */
import { formatExternalSheetPrefix, parseFormulaText, parseStructured, printFormulaTree, printStructured, scanBrackets, splitExternalSheetName, type FormulaNode } from '@finsheet/formula'

const FUTURE_FUNCTIONS = new Set(
  `ACOT ACOTH AGGREGATE ARABIC ARRAYTOTEXT BASE BETA.DIST BETA.INV BINOM.DIST BINOM.DIST.RANGE BINOM.INV BITAND BITLSHIFT BITOR
  BITRSHIFT BITXOR BYCOL BYROW CEILING.MATH CEILING.PRECISE CHISQ.DIST CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT CHISQ.TEST CHOOSECOLS
  CHOOSEROWS COMBINA CONCAT CONFIDENCE.NORM CONFIDENCE.T COT COTH COVARIANCE.P COVARIANCE.S CSC CSCH DAYS DECIMAL DROP ERF.PRECISE
  ERFC.PRECISE EXPAND EXPON.DIST F.DIST F.DIST.RT F.INV F.INV.RT F.TEST FLOOR.MATH FLOOR.PRECISE FORECAST.ETS FORECAST.LINEAR
  FORMULATEXT GAMMA GAMMA.DIST GAMMA.INV GAMMALN.PRECISE GAUSS HSTACK HYPGEOM.DIST IFNA IFS IMCOSH IMCOT IMCSC IMCSCH IMSEC IMSECH
  IMSINH IMTAN ISFORMULA ISOMITTED ISOWEEKNUM LAMBDA LET LOGNORM.DIST LOGNORM.INV MAKEARRAY MAP MAXIFS MINIFS MODE.MULT MODE.SNGL
  NEGBINOM.DIST NETWORKDAYS.INTL NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV NUMBERVALUE PDURATION PERCENTILE.EXC PERCENTILE.INC
  PERCENTRANK.EXC PERCENTRANK.INC PERMUTATIONA PHI POISSON.DIST QUARTILE.EXC QUARTILE.INC RANDARRAY RANK.AVG RANK.EQ REDUCE RRI SCAN
  SEC SECH SEQUENCE SHEET SHEETS SKEW.P SORTBY STDEV.P STDEV.S SWITCH T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T T.TEST TAKE TEXTAFTER
  TEXTBEFORE TEXTJOIN TEXTSPLIT TOCOL TOROW UNICHAR UNICODE UNIQUE VALUETOTEXT VAR.P VAR.S VSTACK WEIBULL.DIST WORKDAY.INTL WRAPCOLS
  WRAPROWS XLOOKUP XMATCH XOR Z.TEST`.split(/\s+/),
)
const WORKSHEET_FUNCTIONS = new Set(['FILTER', 'SORT'])
/** A cell reference, with its sheet, at the end of the text written so far. */
const SPILLED_ANCHOR = /(?<![A-Za-z0-9_.$'])(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?\$?[A-Za-z]{1,3}\$?[0-9]+$/

/**
 * A structured reference's brackets as a file stores them: Excel writes `@` (this row) in full as
 * `[#This Row],`, as in `Sales[[#This Row],[Units]]`; other forms are stored as shown.
 */
function storedBrackets(brackets: string): string {
  if (!brackets.startsWith('[@')) return brackets
  try {
    return printStructured(parseStructured(brackets), true)
  } catch {
    return brackets
  }
}

/**
 * The formula with the names its LAMBDA and LET functions bind (parameters and variables) prefixed
 * `_xlpm.` where they are in scope, as a file stores them: without the prefix Excel reads them as
 * defined names (#NAME?). A LET variable is in scope after its own value (`LET(rate, Rate, …)` reads the
 * defined name Rate in its value). Formulas without LAMBDA or LET come back unchanged.
 */
function withParameterPrefixes(formula: string): string {
  if (!/\b(LAMBDA|LET)\s*\(/i.test(formula)) return formula
  let tree: FormulaNode
  try {
    tree = parseFormulaText(formula)
  } catch {
    return formula
  }
  let bound = false
  const prefixed = (name: string) => {
    bound = true
    return `_xlpm.${name}`
  }
  const visit = (node: FormulaNode, scope: ReadonlySet<string>): FormulaNode => {
    if (node.type === 'name') return node.sheet === undefined && scope.has(node.name.toUpperCase()) ? { ...node, name: prefixed(node.name) } : node
    if (node.type !== 'call') return mapChildren(node, (child) => visit(child, scope))
    const fn = node.name.toUpperCase().replace(/^_XLFN\./, '')
    const last = node.args.length - 1
    if (fn === 'LAMBDA') {
      const inner = new Set(scope)
      const args = node.args.map((arg, index) => {
        if (index === last || arg.type !== 'name') return arg
        inner.add(arg.name.toUpperCase())
        return { ...arg, name: prefixed(arg.name) }
      })
      if (last >= 0) args[last] = visit(node.args[last], inner)
      return { ...node, args }
    }
    if (fn === 'LET') {
      const inner = new Set(scope)
      const args = node.args.map((arg, index) => {
        if (index !== last && index % 2 === 0 && arg.type === 'name') return { ...arg, name: prefixed(arg.name) }
        const value = visit(arg, inner)
        // The variable before this value is in scope from here on.
        const variable = node.args[index - 1]
        if (index % 2 === 1 && variable?.type === 'name') inner.add(variable.name.toUpperCase())
        return value
      })
      return { ...node, args }
    }
    // A LAMBDA bound by LET and called by its name (`LET(f, LAMBDA(x, x*2), f(3))`).
    const name = scope.has(fn) ? prefixed(node.name) : node.name
    return { ...node, name, args: node.args.map((arg) => visit(arg, scope)) }
  }
  const rewritten = visit(tree, new Set())
  return bound ? printFormulaTree(rewritten).replace(/^=/, '') : formula
}

function mapChildren(node: FormulaNode, map: (child: FormulaNode) => FormulaNode): FormulaNode {
  switch (node.type) {
    case 'call':
      return { ...node, args: node.args.map(map) }
    case 'invoke':
      return { ...node, callee: map(node.callee), args: node.args.map(map) }
    case 'unary':
    case 'percent':
    case 'spill':
      return { ...node, operand: map(node.operand) }
    case 'binary':
    case 'rangeOp':
    case 'intersection':
      return { ...node, left: map(node.left), right: map(node.right) }
    case 'union':
      return { ...node, items: node.items.map(map) }
    case 'array':
      return { ...node, rows: node.rows.map((row) => row.map(map)) }
    case 'group':
      return { ...node, expression: map(node.expression) }
    default:
      return node
  }
}

/** The formula (without '=') as an xlsx file stores it. String literals and quoted sheet names are left alone. */
export function storedFormula(written: string): string {
  const formula = withParameterPrefixes(written)
  let out = ''
  let i = 0
  while (i < formula.length) {
    const ch = formula[i]
    if (ch === '[') {
      // Inside a table reference's brackets `'` escapes a character instead of quoting.
      const end = scanBrackets(formula, i)
      if (end > i) {
        out += storedBrackets(formula.slice(i, end))
        i = end
        continue
      }
    }
    if (ch === '"' || ch === "'") {
      let end = i + 1
      while (end < formula.length) {
        if (formula[end] === ch) {
          if (formula[end + 1] === ch) {
            end += 2
            continue
          }
          end++
          break
        }
        end++
      }
      out += formula.slice(i, end)
      i = end
      continue
    }
    const name = /^[A-Za-z][A-Za-z0-9.]*(?=\()/.exec(formula.slice(i))
    if (name && !/[A-Za-z0-9_.$!]/.test(formula[i - 1] ?? '')) {
      const upper = name[0].toUpperCase()
      if (WORKSHEET_FUNCTIONS.has(upper)) out += '_xlfn._xlws.'
      else if (FUTURE_FUNCTIONS.has(upper)) out += '_xlfn.'
      out += name[0]
      i += name[0].length
      continue
    }
    if (ch === '#') {
      // The spill operator after a cell (`A1#`, `Sheet1!$B$2#`): files store it as a function.
      const anchor = SPILLED_ANCHOR.exec(out)
      if (anchor) {
        out = `${out.slice(0, anchor.index)}_xlfn.ANCHORARRAY(${anchor[0]})`
        i++
        continue
      }
    }
    out += ch
    i++
  }
  return out
}

/**
 * The formula (without '=') with every reference to another workbook naming it by its link number, as
 * xlsx files store them: `[Budget.xlsx]Q1!B2` and `'C:\Models\[Budget.xlsx]Q1'!B2` become `[1]Q1!B2`.
 * `linkNumber` answers the number of the link to a file (path as written, file name) and a sheet of it,
 * adding a link when there is none. References already numbered are left alone, as is text in strings.
 */
export function numberExternalReferences(formula: string, linkNumber: (path: string, fileName: string, sheet: string) => number): string {
  if (!formula.includes('[')) return formula
  let out = ''
  let i = 0
  while (i < formula.length) {
    const ch = formula[i]
    if (ch === '"') {
      let end = i + 1
      while (end < formula.length && !(formula[end] === '"' && formula[end + 1] !== '"')) end += formula[end] === '"' ? 2 : 1
      out += formula.slice(i, end + 1)
      i = end + 1
      continue
    }
    let prefix: string | undefined
    let end = i
    if (ch === "'") {
      end = i + 1
      while (end < formula.length && !(formula[end] === "'" && formula[end + 1] !== "'")) end += formula[end] === "'" ? 2 : 1
      if (formula[end + 1] === '!') prefix = formula.slice(i + 1, end).replace(/''/g, "'")
      end += 1
    } else if (ch === '[') {
      const match = /^\[[^[\]]+\][A-Za-z0-9_.\\?\u0080-\uFFFF]*!/.exec(formula.slice(i))
      if (match) {
        prefix = match[0].slice(0, -1)
        end = i + match[0].length - 1
      }
    }
    const parts = prefix === undefined ? undefined : splitExternalSheetName(prefix)
    if (parts === undefined || (parts.path === '' && /^[0-9]+$/.test(parts.workbook))) {
      const next = prefix === undefined && ch !== "'" ? i + 1 : end
      out += formula.slice(i, next)
      i = next
      continue
    }
    out += formatExternalSheetPrefix(`[${linkNumber(parts.path, parts.workbook, parts.sheet)}]${parts.sheet}`)
    i = end
  }
  return out
}
