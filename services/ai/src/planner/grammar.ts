/**
 * The grammar of the planner's command language, in Peggy's notation (a PEG: alternatives are tried
 * in order, so the more specific phrasing of a family comes before the general one). Three start
 * rules: Command (one spreadsheet command), Target (the cells a command names: an address, a range,
 * rows, columns, a sheet, the selection or a label) and ModelRequest (a request for a new financial
 * model). Command's actions turn the text of a target into a Target through `options.parseTarget`,
 * so that a label may hold any words ("debt to equity") and still end where the command's next part
 * begins. Every action builds a value of the types in command-language.ts.
 */
export const COMMAND_GRAMMAR = String.raw`
{{
  const SMALL_NUMBERS = { a: 1, an: 1, one: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20 }
  const SCALES = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, mn: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 }
  const AGGREGATES = { sum: 'SUM', total: 'SUM', subtotal: 'SUM', add: 'SUM', average: 'AVERAGE', mean: 'AVERAGE', avg: 'AVERAGE', max: 'MAX', maximum: 'MAX', min: 'MIN', minimum: 'MIN', count: 'COUNT', median: 'MEDIAN' }
  const plain = (digits) => Number(digits.replace(/,/g, ''))
  // A projection once every part is read: its words, years, first value and growth; null while one is missing.
  const projection = (items) => {
    const found = Object.assign({}, ...items.filter((item) => !('word' in item)))
    const label = items.filter((item) => 'word' in item).map((item) => item.word).join(' ')
    if (found.periods === undefined || found.start === undefined || found.rate === undefined || label === '' || found.periods < 1 || found.periods > 50) return null
    return { type: 'project', label, periods: found.periods, start: found.start, rate: found.rate, ...(found.firstYear !== undefined ? { firstYear: found.firstYear } : {}) }
  }
  // An adjustment by an amount read: points, a percentage, or a number as it is.
  const adjustment = (target, direction, amount) => ({ type: 'adjust', target, direction, amount: amount.value, unit: amount.kind === 'points' ? 'points' : amount.kind === 'percent' ? 'percent' : 'absolute' })
  // A new row's label as a heading reads: "net margin" is written "Net margin".
  const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1)
  // Columns A to the one named: how many are frozen ("freeze columns A to C" freezes 3).
  const lettersToCount = (letters) => [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0)
  // The rows or sheet a period extension names (the plan tells a sheet, a line and the model as a whole apart).
  const extension = (what, span, parseTarget) => ({ type: 'extend', ...(what ? { target: parseTarget(what) } : {}), ...span })
  // "put =B5/B2 in B8" is a formula typed after a verb, not a row named "put" set to a calculation.
  const COMMAND_VERB = /^(put|set|write|enter|type|insert|add|make|fill|input|place|store|key|change|update)\b/i
  // A calculation reads rows by their labels or cells by their addresses, not numbers alone.
  const readsCells = (terms) => terms.some((term) => (term.operand.kind === 'group' ? readsCells(term.operand.terms) : term.operand.kind === 'cells' && (term.operand.target.kind === 'label' || term.operand.target.kind === 'address')))
}}

// ---- the start rules ----------------------------------------------------------------------------

Command
  = Politeness? command:CommandBody Thanks? End { return command }

Target
  = _ target:TargetBody _ !. { return target }

ModelRequest
  = Politeness? request:ModelRequestBody End { return request }

CommandBody
  = CreateModel
  / Undo
  / Sensitivity
  / Projection
  / Extend
  / Growth
  / Audit
  / Explain
  / Question
  / Chart
  / Sort
  / TotalRow
  / Aggregate
  / SheetCommand
  / Borders
  / Move
  / SheetLayout
  / Clear
  / Structure
  / Format
  / Fill
  / Adjust
  / LocationFirst
  / Derive
  / SetValue
  / WriteText

// ---- words and spacing --------------------------------------------------------------------------

_ = [ \t,]*
__ = [ \t]* "," [ \t]* / [ \t]+
End = _ !.
WordChar = [A-Za-z0-9_]
Word = $[^ \t,]+
Article = ("this"i / "that"i / "the"i / "our"i / "an"i / "my"i / "a"i) __
Politeness
  = (("i would like you to"i / "i'd like you to"i / "i want you to"i / "i need you to"i / "go ahead and"i / "i'd like to"i / "could you"i / "would you"i / "i want to"i / "i need to"i / "will you"i / "can you"i / "please"i / "kindly"i / "let's"i / "lets"i / "also"i / "then"i / "okay"i / "just"i / "pls"i / "now"i / "hey"i / "ok"i) !WordChar _)+
Thanks = _ ("thank you"i / "please"i / "thanks"i / "for me"i) !WordChar _

// ---- numbers and values -------------------------------------------------------------------------

Digits = $([0-9]+ ("," [0-9][0-9][0-9])* ("." [0-9]+)? / "." [0-9]+)
Integer = digits:$[0-9]+ !WordChar { return Number(digits) }
CountWord
  = n:Integer { return n }
  / word:$([A-Za-z]+) !WordChar &{ return Object.hasOwn(SMALL_NUMBERS, word.toLowerCase()) } { return SMALL_NUMBERS[word.toLowerCase()] }
Sign = "-" / "+" / "minus"i __ { return '-' }

// A percentage: "15%", "15 percent", "15 pct", "0.5 pp".
Percent
  = sign:Sign? _ digits:Digits _ ("%" / ("per cent"i / "percent"i / "pct"i) !WordChar) {
      const value = (sign === '-' ? -1 : 1) * plain(digits) / 100
      return { kind: 'percent', input: (sign === '-' ? '-' : '') + digits.replace(/,/g, '') + '%', value }
    }

Money
  = sign:Sign? _ symbol:("$" / "€" / "£") _ digits:Digits scale:Scale? {
      const value = (sign === '-' ? -1 : 1) * plain(digits) * (scale ?? 1)
      if (scale) return { kind: 'number', input: value, value, shown: symbol + digits + (scale >= 1e9 ? 'bn' : scale >= 1e6 ? 'm' : 'k') }
      return { kind: 'currency', input: (sign === '-' ? '-' : '') + symbol + digits, value }
    }
  / sign:Sign? _ digits:Digits _ currency:("dollars"i / "euros"i / "usd"i / "eur"i) !WordChar {
      const value = (sign === '-' ? -1 : 1) * plain(digits)
      return { kind: 'number', input: value, value, shown: digits + ' ' + currency }
    }

Scale = _ word:$("thousand"i / "million"i / "billion"i / "mm"i / "mn"i / "bn"i / "k"i / "m"i / "b"i) !WordChar { return SCALES[word.toLowerCase()] }

PlainNumber
  = "(" _ digits:Digits _ ")" { return { kind: 'number', input: -plain(digits), value: -plain(digits), shown: '(' + digits + ')' } }
  / sign:Sign? _ digits:Digits scale:Scale? ("x"i !WordChar)? !WordChar {
      const value = (sign === '-' ? -1 : 1) * plain(digits) * (scale ?? 1)
      return { kind: 'number', input: value, value, shown: (sign === '-' ? '-' : '') + digits + (scale ? (scale >= 1e9 ? 'bn' : scale >= 1e6 ? 'm' : 'k') : '') }
    }

Boolean = word:$("false"i / "true"i / "yes"i / "no"i) !WordChar { const value = /^(true|yes)$/i.test(word); return { kind: 'boolean', input: value, value } }

IsoDate = text:$([0-9][0-9][0-9][0-9] "-" [0-9][0-9]? "-" [0-9][0-9]?) !WordChar { return { kind: 'date', input: text } }

Quoted
  = '"' text:$[^"]* '"' { return text }
  / "'" text:$[^']* "'" { return text }
  / "“" text:$[^”]* "”" { return text }
  / "‘" text:$[^’]* "’" { return text }

QuotedText = text:Quoted { return { kind: 'text', input: text } }

// A formula to the end of the command, or a function call typed without its "=".
FormulaToEnd
  = "=" body:$(.+) { return { kind: 'formula', input: '=' + body.trim() } }
  / call:$([A-Za-z][A-Za-z0-9.]* "(" (!(")" _ !.) .)* ")") _ !. { return { kind: 'formula', input: '=' + call.trim() } }

Value = FormulaToEnd / IsoDate / Percent / Money / PlainNumber / Boolean / QuotedText

// ---- targets ------------------------------------------------------------------------------------

Letters = $([A-Za-z] [A-Za-z]? [A-Za-z]?)
CellAddress = "$"? letters:Letters "$"? digits:$[0-9]+ !WordChar { return letters.toUpperCase() + digits }
SheetPrefix
  = name:Quoted "!" { return name }
  / name:$[A-Za-z0-9_.]+ "!" { return name }
SheetName = Quoted / $[A-Za-z0-9_.&-]+

TargetBody
  = target:TargetCore sheet:SheetSuffix? { return sheet ? { ...target, sheet } : target }

// Each kind of target must reach the end of the text (or a sheet named after it) to be taken.
TargetCore
  = target:SelectionTarget &TargetEnd { return target }
  / target:A1Range &TargetEnd { return target }
  / target:AddressRange &TargetEnd { return target }
  / target:ColumnsTarget &TargetEnd { return target }
  / target:RowsTarget &TargetEnd { return target }
  / target:SheetTarget &TargetEnd { return target }
  / CellWord? address:Address &TargetEnd { return address }
  / target:HeaderRowTarget &TargetEnd { return target }
  / LabelTarget
TargetEnd = SheetSuffix? _ !.

CellWord = ("cell"i "s"? / "the cell"i) __
Address = sheet:SheetPrefix? address:CellAddress { return sheet ? { kind: 'address', sheet, address } : { kind: 'address', address } }
A1Range = CellWord? sheet:SheetPrefix? from:CellAddress ":" to:CellAddress { return { kind: 'range', from, to, ...(sheet ? { sheet } : {}) } }
RangeJoin = __ ("through"i / "until"i / "thru"i / "and"i / "to"i) !WordChar __ / _ ("-" / "–") _
// Rows and columns "3 and 5" are two of them, not all between (deleting "rows 3 and 5" must never take row 4).
SpanJoin = __ ("through"i / "until"i / "thru"i / "to"i) !WordChar __ / _ ("-" / "–") _
AddressRange = CellWord? sheet:SheetPrefix? from:CellAddress RangeJoin to:CellAddress { return { kind: 'range', from, to, ...(sheet ? { sheet } : {}) } }
ColumnWord = ("column"i "s"? / "col"i "s"?) !WordChar
RowWord = "row"i "s"? !WordChar
ColumnsTarget
  = Article? ColumnWord __ "between"i __ from:Letters !WordChar __ "and"i __ ColumnWord? _ to:Letters !WordChar {
      return { kind: 'columns', from: from.toUpperCase(), to: to.toUpperCase() }
    }
  / Article? ColumnWord __ from:Letters !WordChar to:(SpanJoin ColumnWord? _ to:Letters !WordChar { return to })? {
      return { kind: 'columns', from: from.toUpperCase(), to: (to ?? from).toUpperCase() }
    }
  / sheet:SheetPrefix? from:Letters ":" to:Letters !WordChar { return { kind: 'columns', from: from.toUpperCase(), to: to.toUpperCase(), ...(sheet ? { sheet } : {}) } }
RowsTarget
  = Article? RowWord __ "between"i __ from:Integer __ "and"i __ RowWord? _ to:Integer { return { kind: 'rows', from, to } }
  / Article? RowWord __ from:Integer to:(SpanJoin RowWord? _ to:Integer { return to })? { return { kind: 'rows', from, to: to ?? from } }
  / Article? RowWord _ "-"? _ from:Integer { return { kind: 'rows', from, to: from } }
  / from:Integer ":" to:Integer { return { kind: 'rows', from, to } }
SelectionTarget
  = Article? ("highlighted cells"i / "current selection"i / "cells i selected"i / "selected cells"i / "selected range"i / "selected cell"i / "current cell"i / "these cells"i / "this range"i / "this cell"i / "selection"i / "these"i / "those"i / "this"i / "them"i / "it"i) !WordChar { return { kind: 'selection' } }
SheetTarget
  = ("the entire sheet"i / "the whole sheet"i / "all the cells"i / "all the data"i / "everything"i / "this sheet"i / "all cells"i / "the sheet"i / "all data"i / "the tab"i) sheet:SheetSuffix? {
      return sheet ? { kind: 'sheet', sheet } : { kind: 'sheet' }
    }
  / Article? ("whole"i __ / "entire"i __)? ("worksheet"i / "sheet"i / "tab"i) __ name:SheetName { return { kind: 'sheet', sheet: name } }
HeaderRowTarget
  = Article? ("header"i "s"? / "heading"i "s"? / "title"i) __ ("line"i / "row"i) !WordChar { return { kind: 'header_row' } }
  / Article? ("column headers"i / "headings"i / "headers"i) !WordChar { return { kind: 'header_row' } }

// Words that name a row by its label: "growth", "the revenue growth", "the row labelled Notes".
LabelTarget
  = Article? (("line"i / "row"i) __ ("labelled"i / "labeled"i / "called"i / "named"i / "for"i) __)? text:LabelText { return { kind: 'label', text } }
LabelText
  = text:Quoted { return text }
  / words:$(Word (!SheetSuffix !(__ LabelTail) __ Word)*) (__ LabelTail)? { return words }
LabelTail = ("row"i / "line"i / "cell"i) _ !.

// "on Assumptions", "on the Assumptions sheet", "in the sheet FCF", "in tab 'Q1 Data'".
SheetNoun = "worksheet"i / "sheet"i / "tab"i
SheetSuffix
  = __ ("from"i / "on"i / "in"i / "of"i) __ ("the"i __)? ("worksheet"i / "sheet"i / "tab"i) __ name:SheetName &End { return name }
  / __ ("from"i / "on"i / "in"i / "of"i) __ ("the"i __)? name:$(!(SheetNoun !WordChar) Word (__ !(SheetNoun !WordChar) Word)*) __ SheetNoun !WordChar &End { return name.trim() }
  / __ "on"i __ ("the"i __)? name:(Quoted / $(Word (__ Word)*)) &End { return name }

// Raw text of a target, handed to the Target rule by the action that holds it.
TargetText = text:$(.+) { return options.parseTarget(text) }

// ---- set values and formulas --------------------------------------------------------------------

SetVerb = ("overwrite"i / "replace"i / "change"i / "update"i / "modify"i / "edit"i / "make"i / "set"i) !WordChar (__ ("the"i __)? ("contents"i / "formula"i / "content"i / "values"i / "number"i / "value"i / "input"i) __ ("for"i / "of"i / "in"i / "at"i))?
SetLink = ("to"i (__ "be"i)? / "equal to"i / "equals"i / "=" / "as"i / "with"i / "at"i) !WordChar
SetValueTail = __ SetLink __ ("the"i __ ("formula"i / "number"i / "value"i) __)? Value End
SetTarget = text:$((!SetValueTail .)+) { return options.parseTarget(text) }
SetValue
  = SetVerb __ target:SetTarget __ SetLink __ ("the"i __ ("formula"i / "number"i / "value"i) __)? value:Value End { return { type: 'set', target, value } }
  / SetVerb __ target:PlainAddress __ SetLink __ text:Quoted _ !. { return { type: 'set', target, value: { kind: 'text', input: text } } }
  / SetVerb __ target:PlainAddress __ SetLink __ text:$(.+) { return { type: 'set', target, value: { kind: 'text', input: text.trim(), words: true } } }
  / ("link"i / "point"i / "connect"i) __ target:PlainAddress __ "to"i __ text:$(.+) { return { type: 'set', target, value: { kind: 'text', input: text.trim(), words: true } } }
  / "make"i __ target:PlainAddress __ value:Value End { return { type: 'set', target, value } }
  / "make"i __ target:$((!(__ Value End) .)+) __ value:Value End { return { type: 'set', target: options.parseTarget(target), value } }
  / target:PlainAddress _ ("=" / ":" / "<-" / "is"i !WordChar) _ value:Value End { return { type: 'set', target, value } }
  / target:PlainAddress _ ("=" / ":") _ text:TextToEnd { return { type: 'set', target, value: { kind: 'text', input: text } } }
  / PutVerb __ ("the"i __ ("formula"i / "number"i / "value"i) __)? value:PutValue __ PutLink __ target:TargetText { return { type: 'set', target, value } }
PlainAddress = CellWord? address:Address sheet:SheetSuffix? { return sheet ? { ...address, sheet } : address }

// The cell first, then what goes in it: "in B5 put =B2-B3", "in A5 write Gross profit", "in C2 the formula =C1/B1-1".
LocationLink = ("into"i / "in"i / "at"i) !WordChar __
LocationTarget = target:A1Range { return target } / CellWord? address:Address { return address }
LocationFirst
  = LocationLink target:LocationTarget __ (PutVerb __)? ("the"i __ ("formula"i / "number"i / "value"i) __)? value:Value End { return { type: 'set', target, value } }
  / LocationLink target:LocationTarget __ TypeVerb __ (Article? TextNoun __)? text:TextToEnd { return { type: 'set', target, value: { kind: 'text', input: text } } }
  / LocationLink target:LocationTarget __ Article? TextNoun __ text:TextToEnd { return { type: 'set', target, value: { kind: 'text', input: text } } }
TextToEnd = text:Quoted _ !. { return text } / text:$(.+) { return text.trim() }

PutVerb = ("fill in"i / "insert"i / "key in"i / "enter"i / "write"i / "input"i / "place"i / "store"i / "type"i / "put"i / "add"i) !WordChar
PutLink = ("inside"i / "under"i / "into"i / "for"i / "in"i / "at"i / "to"i) !WordChar (__ "cell"i !WordChar)?
PutTail = __ PutLink __ .+
PutValue
  = "=" body:$((!PutTail .)+) { return { kind: 'formula', input: '=' + body.trim() } }
  / value:(IsoDate / Percent / Money / PlainNumber / Boolean / QuotedText) &PutTail { return value }
  / call:$([A-Za-z][A-Za-z0-9.]* "(" (!(")" PutTail) .)* ")") &PutTail { return { kind: 'formula', input: '=' + call } }

// ---- rows calculated from other rows -----------------------------------------------------------

// "add a row Gross profit = revenue - costs", "add a gross profit row that subtracts costs from revenue",
// "put revenue minus costs in row 4", "set gross profit to revenue minus costs", "margin = gross profit / revenue".
DeriveOp
  = _ "+" _ { return '+' }
  / _ ("-" / "–") _ { return '-' }
  / _ ("*" / "×") _ { return '*' }
  / _ "/" _ { return '/' }
  / __ "plus"i !WordChar __ { return '+' }
  / __ ("minus"i / "less"i) !WordChar __ { return '-' }
  / __ ("multiplied by"i / "times"i) !WordChar __ { return '*' }
  / __ ("divided by"i / "over"i) !WordChar __ { return '/' }
DeriveEnd = __ ("into"i / "in"i / "on"i) __ (RowWord / "row"i) / _ !.
Operand
  = "(" _ terms:Expression _ ")" { return { kind: 'group', terms } }
  / value:(Percent / PlainNumber) &(DeriveOp / DeriveEnd / _ ")") { return { kind: 'number', input: String(value.input) } }
  / words:$((!DeriveOp !DeriveEnd !(_ ")") [^=(])+) { return { kind: 'cells', target: options.parseTarget(words) } }
// A formula typed with its "=" is a formula, not a calculation to build.
Expression
  = !"=" first:Operand rest:(op:DeriveOp operand:Operand { return { op, operand } })+ { return [{ op: null, operand: first }, ...rest] }
  / ("the"i __)? ("difference between"i / "difference of"i) __ a:VerbalOperand __ "and"i __ b:Operand { return [{ op: null, operand: a }, { op: '-', operand: b }] }
  / ("the"i __)? ("sum of"i / "total of"i) __ a:VerbalOperand __ "and"i __ b:Operand { return [{ op: null, operand: a }, { op: '+', operand: b }] }
  / ("the"i __)? ("ratio of"i / "quotient of"i) __ a:VerbalOperand __ ("to"i / "and"i) __ b:Operand { return [{ op: null, operand: a }, { op: '/', operand: b }] }
  / ("the"i __)? "product of"i __ a:VerbalOperand __ "and"i __ b:Operand { return [{ op: null, operand: a }, { op: '*', operand: b }] }
// The first operand of a verbal phrase ends at its joining word: "subtracts costs from revenue".
VerbalOperand
  = value:(Percent / PlainNumber) &(__ ("from"i / "and"i / "by"i / "to"i) !WordChar) { return { kind: 'number', input: String(value.input) } }
  / words:$((!(__ ("from"i / "and"i / "by"i / "to"i) !WordChar) .)+) { return { kind: 'cells', target: options.parseTarget(words) } }
DeriveVerbal
  = ("that subtracts"i / "which subtracts"i / "subtracting"i) __ a:VerbalOperand __ "from"i __ b:Operand { return [{ op: null, operand: b }, { op: '-', operand: a }] }
  / ("that adds"i / "which adds"i / "adding"i) __ a:VerbalOperand __ ("and"i / "to"i) __ b:Operand { return [{ op: null, operand: a }, { op: '+', operand: b }] }
  / ("that divides"i / "which divides"i / "dividing"i) __ a:VerbalOperand __ "by"i __ b:Operand { return [{ op: null, operand: a }, { op: '/', operand: b }] }
  / ("that multiplies"i / "which multiplies"i / "multiplying"i) __ a:VerbalOperand __ "by"i __ b:Operand { return [{ op: null, operand: a }, { op: '*', operand: b }] }
DeriveIs = _ ("=" / ":") _ / __ ("equal to"i / "equals"i / "that is"i / "which is"i / "as"i / "is"i / "with"i / "to"i) !WordChar __
// After "set <cells>": not ":" (a range's own) nor "is", "with" or "as" in a label's words.
SetDeriveIs = _ "=" _ / __ ("equal to"i / "equals"i / "to"i) !WordChar __
DeriveLabel = text:(Quoted / $((!DeriveIs !(__ ("row"i / "line"i) !WordChar) .)+)) { return text.trim() }
NewRow = ("insert"i / "create"i / "append"i / "make"i / "add"i) __ (("an"i / "a"i / "one"i / "the"i) __)? (("new"i / "extra"i) __)?
// "add a row for EBITDA with a 20% margin", "add COGS at 40% of revenue": a line as a share of another.
RatioLink = ("at"i / "as"i / "with"i / "equal to"i / "being"i) __ (("a"i / "an"i) __)? / _ "=" _
RatioBase
  = __ ("margins"i / "margin"i) !WordChar base:(__ ("on"i / "of"i) __ b:$(.+) { return b })? { return base ?? 'revenue' }
  / __ ("of"i / "on"i) __ base:$(.+) { return base }
RatioLabel = $((!(__ (("row"i / "line"i) __)? RatioLink Percent) .)+)
DeriveRatio
  = NewRow (("row"i / "line"i) __ (("called"i / "named"i / "labelled"i / "labeled"i / "for"i) __)?)? label:RatioLabel __ (("row"i / "line"i) __)? RatioLink rate:Percent base:RatioBase End {
      return { type: 'derive', label: label.trim(), terms: [{ op: null, operand: { kind: 'cells', target: options.parseTarget(base) } }, { op: '*', operand: { kind: 'number', input: rate.input } }] }
    }
// "add an EBITDA margin row", "calculate the gross profit margin", "show costs as a % of revenue": a
// line over another (revenue unless named), as percentages.
CalcVerb = (NewRow (("row"i / "line"i) __ ("for"i / "called"i / "named"i / "of"i) __)? / ("calculate"i / "compute"i / "work out"i / "show"i / "add"i) __ ("the"i __ / "a"i __ / "an"i __)?)
RowWords = (__ ("row"i / "line"i) !WordChar)?
DeriveShare
  = CalcVerb what:$((!(__ ("margins"i / "margin"i) !WordChar) .)+) __ ("margins"i / "margin"i) !WordChar RowWords base:(__ ("on"i / "of"i / "over"i / "against"i) __ b:$(.+) { return b })? End {
      return { type: 'derive', label: capitalised(what.trim()) + ' margin', terms: [{ op: null, operand: { kind: 'cells', target: options.parseTarget(what) } }, { op: '/', operand: { kind: 'cells', target: options.parseTarget(base ?? 'revenue') } }], percent: true }
    }
  / ("show"i / "express"i / "calculate"i / "compute"i / "add"i) __ what:$((!(__ "as"i __) .)+) __ "as"i __ ("a"i __)? ("%"i / "percentage"i / "percent"i / "share"i / "proportion"i) __ "of"i __ base:$(.+) End {
      return { type: 'derive', label: capitalised(what.trim()) + ' % of ' + base.trim(), terms: [{ op: null, operand: { kind: 'cells', target: options.parseTarget(what) } }, { op: '/', operand: { kind: 'cells', target: options.parseTarget(base) } }], percent: true }
    }
// "add a revenue growth row", "calculate year-over-year growth of revenue": each period over the one before, less one.
GrowthAdjective = ("year-over-year"i / "year over year"i / "yoy"i / "y/y"i / "annual"i / "yearly"i) __
GrowthWord = "growth"i (__ ("rates"i / "rate"i / "percentages"i / "%"))? !WordChar
DeriveGrowth
  = CalcVerb GrowthAdjective? GrowthWord RowWords __ ("for"i / "of"i / "in"i) __ what:$(.+) End { return { type: 'growth_row', line: options.parseTarget(what) } }
  / CalcVerb what:$((!(__ GrowthAdjective? GrowthWord) .)+) &{ return !/\b(and|table|sensitivity|for|with|by|at)\b/i.test(what) } __ GrowthAdjective? GrowthWord RowWords End { return { type: 'growth_row', line: options.parseTarget(what) } }
Derive
  = DeriveRatio
  / DeriveShare
  / DeriveGrowth
  / NewRow ("row"i / "line"i) __ (("called"i / "named"i / "labelled"i / "labeled"i / "for"i) __)? label:DeriveLabel DeriveIs expression:Expression End { return { type: 'derive', label, terms: expression } }
  / NewRow label:DeriveLabel __ ("row"i / "line"i) terms:(DeriveIs e:Expression { return e } / __ e:DeriveVerbal { return e }) End { return { type: 'derive', label, terms } }
  / ("calculate"i / "compute"i / "write"i / "enter"i / "put"i) __ expression:Expression __ ("into"i / "in"i / "on"i) __ at:RowsTarget End { return { type: 'derive', at, terms: expression } }
  / SetVerb __ at:$((!SetDeriveIs .)+) SetDeriveIs expression:Expression End &{ return readsCells(expression) } { return { type: 'derive', at: options.parseTarget(at), terms: expression } }
  / at:$((!(_ "=" _) [^=])+) _ "=" _ expression:Expression End &{ return readsCells(expression) && !COMMAND_VERB.test(at) } { return { type: 'derive', at: options.parseTarget(at), terms: expression } }

// ---- text ---------------------------------------------------------------------------------------

TextNoun = ("heading"i / "comment"i / "caption"i / "header"i / "words"i / "label"i / "title"i / "text"i / "word"i / "note"i / "name"i) !WordChar
// Bare words are taken as text after verbs that mean typing; "add" and "insert" need the text quoted or named as text.
TypeVerb = ("key in"i / "input"i / "enter"i / "write"i / "type"i / "put"i) !WordChar
// Bare words go into the cells named by address or selected only: "put revenue minus costs in row 4" is not a text for a whole row.
WriteText
  = TypeVerb __ Article? TextNoun __ text:(Quoted / $((!PutTail .)+)) __ PutLink __ target:TargetText { return { type: 'set', target, value: { kind: 'text', input: text.trim() } } }
  / TypeVerb __ text:Quoted __ PutLink __ target:TargetText { return { type: 'set', target, value: { kind: 'text', input: text } } }
  / TypeVerb __ text:$((!PutTail .)+) __ PutLink __ target:TargetText &{ return ['address', 'range', 'selection'].includes(target.kind) } { return { type: 'set', target, value: { kind: 'text', input: text.trim() } } }
  / ("caption"i / "label"i / "title"i / "name"i) __ ("it"i / "this"i / "them"i) __ text:(Quoted / $((!PutTail .)+)) __ PutLink __ target:PlainAddress { return { type: 'set', target, value: { kind: 'text', input: text.trim() } } }
  / PutVerb __ Article? TextNoun __ text:(Quoted / $((!PutTail .)+)) __ PutLink __ target:TargetText { return { type: 'set', target, value: { kind: 'text', input: text.trim() } } }
  / PutVerb __ text:Quoted __ PutLink __ target:TargetText { return { type: 'set', target, value: { kind: 'text', input: text } } }
  / ("caption"i / "label"i / "title"i / "name"i / "head"i) __ target:PlainAddress __ (("with"i / "as"i / "to"i) __)? text:TextToEnd { return { type: 'set', target, value: { kind: 'text', input: text } } }

// ---- adjust by an amount ------------------------------------------------------------------------

AdjustVerb
  = ("increase"i / "raise"i / "bump"i (__ "up"i)? / "lift"i / "grow"i / "up"i) !WordChar { return 'up' }
  / ("bring down"i / "decrease"i / "reduce"i / "lower"i / "drop"i / "trim"i / "cut"i) !WordChar { return 'down' }
AdjustTail = __ "by"i __ (Percent / Money / PlainNumber) .*
Adjust
  // "add 5 to B2" adds to what B2 holds (typing 5 over it is "put 5 in B2"); "subtract 5 from B2", "take 2% off prices".
  = "add"i __ amount:(Points / Percent / Money / PlainNumber) __ ("to"i / "onto"i) __ target:TargetText { return adjustment(target, 'up', amount) }
  / ("subtract"i / "deduct"i / "take"i) __ amount:(Points / Percent / Money / PlainNumber) __ ("from"i / "off"i) __ target:TargetText { return adjustment(target, 'down', amount) }
  / direction:AdjustVerb __ target:$((!AdjustTail .)+) __ "by"i __ amount:(Points / Percent / Money / PlainNumber) End { return adjustment(options.parseTarget(target), direction, amount) }
Points = digits:Digits _ ("percentage points"i / "percentage point"i / "basis points"i / "points"i / "point"i / "ppt"i / "bps"i / "pp"i / "bp"i) !WordChar {
    const unit = text().toLowerCase()
    const bps = /bps|basis|bp/.test(unit)
    return { kind: 'points', value: plain(digits) / (bps ? 10000 : 100) }
  }

// ---- fill and copy ------------------------------------------------------------------------------

FillVerb = ("propagate"i / "autofill"i / "continue"i / "extend"i / "carry"i / "apply"i / "fill"i / "copy"i / "drag"i / "roll"i) !WordChar
Direction
  = ("to the right"i / "horizontally"i / "rightwards"i / "sideways"i / "across"i / "right"i / "along"i) !WordChar { return 'right' }
  / ("vertically"i / "downwards"i / "downward"i / "below"i / "down"i) !WordChar { return 'down' }
FillSource = ("the"i __)? ("formula"i "s"? / "formulae"i / "calculation"i / "contents"i) __ ("from"i / "in"i / "of"i / "at"i) __
FillStop = __ (Direction / ("all the way"i / "as far as"i / "through"i / "until"i / "up to"i / "into"i / "till"i / "thru"i / "over"i / "onto"i / "to"i) !WordChar)
FillDestination
  = ("as far as"i / "through"i / "until"i / "up to"i / "into"i / "till"i / "thru"i / "over"i / "onto"i / "to"i) __ ("the"i __)? ("end"i / "last"i __ ("column"i / "period"i / "year"i / "row"i)) (__ .*)? { return { kind: 'end' } }
  / ("as far as"i / "through"i / "until"i / "up to"i / "into"i / "till"i / "thru"i / "over"i / "onto"i / "to"i) __ target:TargetText { return target }
  / "all the way"i (__ .*)? { return { kind: 'end' } }
Fill
  = FillVerb __ target:(A1Range / AddressRange / PlainAddress) __ "with"i __ ("the"i __ ("formula"i / "number"i / "value"i) __)? value:Value End { return { type: 'set', target, value } }
  / FillVerb __ FillSource? source:$((!FillStop .)+) __ direction:Direction destination:(__ d:FillDestination { return d })? End {
      return { type: 'fill', source: options.parseTarget(source), direction, ...(destination ? { destination } : {}) }
    }
  / FillVerb __ direction:Direction __ (("from"i / "with"i) __)? FillSource? source:$((!FillStop .)+) destination:(__ d:FillDestination { return d })? End {
      return { type: 'fill', source: options.parseTarget(source), direction, ...(destination ? { destination } : {}) }
    }
  / FillVerb __ FillSource? source:$((!FillStop .)+) __ destination:FillDestination End {
      return { type: 'fill', source: options.parseTarget(source), destination }
    }

// ---- rows, columns and sheets -------------------------------------------------------------------

InsertVerb = ("insert"i / "create"i / "add"i / "put"i) !WordChar (__ "in"i !WordChar)?
DeleteVerb = ("get rid of"i / "eliminate"i / "delete"i / "remove"i / "erase"i / "drop"i / "kill"i) !WordChar
Blank = ("additional"i / "blank"i / "empty"i / "extra"i / "more"i / "new"i) __
SideBefore = ("to the left of"i / "in front of"i / "on top of"i / "left of"i / "before"i / "above"i / "over"i) !WordChar { return 'before' }
SideAfter = ("to the right of"i / "underneath"i / "following"i / "right of"i / "beneath"i / "below"i / "after"i / "under"i) !WordChar { return 'after' }
SideAt = ("into"i / "at"i / "as"i / "in"i) !WordChar { return 'at' }
RowAnchor
  = RowWord __ n:Integer { return { kind: 'rows', from: n, to: n } }
  / n:Integer !WordChar { return { kind: 'rows', from: n, to: n } }
  / text:$(.+) { return options.parseTarget(text) }
ColumnAnchor
  = ColumnWord __ letters:Letters !WordChar { return { kind: 'columns', from: letters.toUpperCase(), to: letters.toUpperCase() } }
  / letters:Letters !WordChar &End { return { kind: 'columns', from: letters.toUpperCase(), to: letters.toUpperCase() } }
  / text:$(.+) { return options.parseTarget(text) }
Structure
  = InsertVerb __ count:(c:CountWord __ { return c })? Blank? RowWord __ side:(SideBefore / SideAfter / SideAt) __ ("the"i __)? anchor:RowAnchor {
      return { type: 'insert', axis: 'rows', count: count ?? 1, side, anchor }
    }
  / InsertVerb __ count:(c:CountWord __ { return c })? Blank? ColumnWord __ side:(SideBefore / SideAfter / SideAt) __ ("the"i __)? anchor:ColumnAnchor {
      return { type: 'insert', axis: 'columns', count: count ?? 1, side, anchor }
    }
  / InsertVerb __ count:(c:CountWord __ { return c })? Blank? RowWord _ anchor:RowAnchor &{ return anchor.kind === 'rows' } End {
      return { type: 'insert', axis: 'rows', count: count ?? 1, side: 'at', anchor }
    }
  / InsertVerb __ count:(c:CountWord __ { return c })? Blank? ColumnWord _ anchor:ColumnAnchor &{ return anchor.kind === 'columns' } End {
      return { type: 'insert', axis: 'columns', count: count ?? 1, side: 'at', anchor }
    }
  / DeleteVerb __ target:(RowsTarget / ColumnsTarget) sheet:SheetSuffix? End { return { type: 'delete', target: sheet ? { ...target, sheet } : target } }
  / DeleteVerb __ Article? (RowWord / "line"i) __ ("labelled"i / "labeled"i / "called"i / "named"i / "for"i) __ text:TextToEnd { return { type: 'delete', target: { kind: 'label', text }, axis: 'rows' } }
  / DeleteVerb __ Article? text:$((!(__ ("line"i / "row"i) _ !.) .)+) __ ("line"i / "row"i) End { return { type: 'delete', target: options.parseTarget(text), axis: 'rows' } }

SheetWord = ("worksheet"i / "sheet"i / "page"i / "tab"i) !WordChar
NameLink = ("with the name"i / "with name"i / "called"i / "titled"i / "named"i / "as"i / ":") !WordChar
SheetPosition
  = __ ("at the beginning"i / "at the start"i / "at the front"i / "in front"i / "first"i) !WordChar { return 1 }
  / __ ("at position"i / "in position"i) __ n:Integer { return n }
SheetNameTail = SheetPosition? End
NewSheetName = name:Quoted { return name } / name:$((!SheetNameTail .)+) { return name.trim() }
SheetCommand
  = ("create"i / "insert"i / "make"i / "open"i / "add"i / "new"i) !WordChar (__ ("one more"i / "another"i / "an"i / "a"i) !WordChar)? (__ ("additional"i / "blank"i / "empty"i / "extra"i / "new"i) !WordChar)* __ SheetWord (__ NameLink)? name:(__ n:NewSheetName { return n })? position:SheetPosition? End {
      return { type: 'add_sheet', ...(name ? { name } : {}), ...(position ? { position } : {}) }
    }
  / "rename"i __ ("the current"i / "the active"i / "current"i / "this"i) __ SheetWord __ ("into"i / "to"i / "as"i) __ to:NewSheetName End { return { type: 'rename_sheet', to } }
  / "rename"i __ ("the"i __)? (SheetWord __)? from:(Quoted / $((!(__ (SheetWord __)? ("into"i / "to"i / "as"i) !WordChar) .)+)) __ (SheetWord __)? ("into"i / "to"i / "as"i) __ to:NewSheetName End {
      return { type: 'rename_sheet', from: from.trim(), to }
    }
  / ("change"i / "set"i) __ "the name of"i __ ("the"i __)? (SheetWord __)? from:(Quoted / $((!(__ (SheetWord __)? "to"i !WordChar) .)+)) __ (SheetWord __)? "to"i __ to:NewSheetName End {
      return { type: 'rename_sheet', from: from.trim(), to }
    }
  / DeleteVerb __ ("the current"i / "the active"i / "current"i / "this"i) __ SheetWord End { return { type: 'delete_sheet' } }
  / DeleteVerb __ ("the"i __)? SheetWord __ (NameLink __)? name:NewSheetName End { return { type: 'delete_sheet', name } }
  / DeleteVerb __ ("the"i __)? name:(Quoted / $((!(__ SheetWord End) .)+)) __ SheetWord End { return { type: 'delete_sheet', name: name.trim() } }

// ---- formats ------------------------------------------------------------------------------------

StyleWord
  = ("in bold"i / "heavy"i / "bold"i) !WordChar { return { style: { bold: true }, words: 'bold' } }
  / ("italic"i "s"? / "in italics"i / "italicised"i / "italicized"i / "slanted"i) !WordChar { return { style: { italic: true }, words: 'italic' } }
  / ("underlined"i / "underline"i) !WordChar { return { style: { underline: true }, words: 'underlined' } }
  / ("normal weight"i / "not bold"i / "unbold"i) !WordChar { return { style: { bold: false }, words: 'not bold' } }
  / ("center aligned"i / "centre aligned"i / "in the center"i / "in the centre"i / "centered"i / "centred"i) !WordChar { return { style: { align: 'center' }, words: 'centred' } }
  / ("right aligned"i / "right-aligned"i / "aligned right"i) !WordChar { return { style: { align: 'right' }, words: 'right-aligned' } }
  / ("left aligned"i / "left-aligned"i / "aligned left"i) !WordChar { return { style: { align: 'left' }, words: 'left-aligned' } }
  / colour:Colour ("text"i / "font"i)? { return { style: { color: colour.css }, words: colour.name } }
Colour
  = name:$("orange"i / "purple"i / "yellow"i / "green"i / "black"i / "white"i / "blue"i / "grey"i / "gray"i / "red"i) !WordChar {
      const table = { red: '#c00000', green: '#00803c', blue: '#0000ff', black: '#000000', orange: '#e26b0a', purple: '#7030a0', grey: '#808080', gray: '#808080', yellow: '#ffff00', white: '#ffffff' }
      return { name: name.toLowerCase(), css: table[name.toLowerCase()] }
    }
  / css:$("#" [0-9A-Fa-f]+) { return { name: css, css } }
Styles = first:StyleWord rest:(_ ("and"i / "&" / "+")? _ s:StyleWord { return s })* {
    const all = [first, ...rest]
    return { style: Object.assign({}, ...all.map((s) => s.style)), words: all.map((s) => s.words).join(' and ') }
  }

Decimals
  = n:CountWord __ ("decimal places"i / "decimal place"i / "decimals"i / "decimal"i / "places"i / "dp"i) !WordChar { return n }
  / ("zero"i / "no"i) __ ("decimal"i "s"? / "decimal places"i) !WordChar { return 0 }
  / ("whole numbers"i / "no decimals"i / "integers"i) !WordChar { return 0 }
DecimalsSuffix = __ ("with"i / "and"i / "to"i / "at"i / "in"i)? _ ("the"i __)? d:Decimals { return d }
FormatKind
  = ("us"i __)? ("accounting"i / "us dollars"i / "currency"i / "dollars"i / "dollar"i / "money"i / "usd"i / "$") !WordChar { return { kind: 'currency', symbol: '$' } }
  / ("euros"i / "euro"i / "eur"i / "€") !WordChar { return { kind: 'currency', symbol: '€' } }
  / ("sterling"i / "pounds"i / "pound"i / "gbp"i / "£") !WordChar { return { kind: 'currency', symbol: '£' } }
  / ("percentages"i / "percentage"i / "percents"i / "per cent"i / "percent"i / "pct"i / "%") !WordChar { return { kind: 'percent' } }
  / ("numbers with thousands separators"i / "numbers with thousand separators"i / "thousands separators"i / "thousands separator"i / "numbers with commas"i / "thousand separators"i / "number with commas"i / "comma style"i / "thousands"i / "numbers"i / "number"i / "commas"i) !WordChar { return { kind: 'number' } }
  / ("dates"i / "date"i) !WordChar { return { kind: 'date' } }
  / ("no formatting"i / "no format"i / "general"i / "plain"i) !WordChar { return { kind: 'general' } }
  / ("multiples"i / "multiple"i) !WordChar { return { kind: 'multiple' } }
// A number format code as Excel writes it: "$#,##0", "#,##0;(#,##0)", "0.0%" (a number such as 15% is a value, not a code).
FormatCode
  = code:Quoted { return { kind: 'code', code } }
  / code:$[^ \t]+ &{ return /[0#?]/.test(code) && !/^[-+$€£]?[0-9.,]*[1-9][0-9.,]*%?$/.test(code) && !/^[0-9.,]+$/.test(code) } { return { kind: 'code', code } }
FormatSpec
  = ("a"i __ / "an"i __)? kind:FormatKind (__ ("figures"i / "amounts"i / "format"i / "values"i / "style"i))? decimals:DecimalsSuffix? { return { ...kind, ...(decimals !== null ? { decimals } : {}) } }
  / decimals:Decimals { return { kind: 'decimals', decimals } }
  / styles:Styles { return { kind: 'style', ...styles } }
FormatVerb = ("display"i / "convert"i / "format"i / "change"i / "render"i / "style"i / "show"i / "make"i / "turn"i / "set"i / "put"i) !WordChar
FormatLink = ("using"i / "with"i / "into"i / "as"i / "in"i / "to"i) !WordChar
FormatTail = __ FormatLink __ FormatSpec End
FormatTarget = text:$((!FormatTail .)+) { return options.parseTarget(text) }
Format
  = FormatVerb __ target:FormatTarget __ FormatLink __ spec:FormatSpec End { return { type: 'format', target, spec } }
  / ("set"i / "change"i / "apply"i / "use"i) __ ("the"i __)? ("number format"i / "format code"i / "format"i) __ ("of"i / "for"i / "on"i / "in"i) __ target:$((!(__ ("to"i / "as"i) __ FormatCode End) .)+) __ ("to"i / "as"i) __ spec:FormatCode End {
      return { type: 'format', target: options.parseTarget(target), spec }
    }
  // Only after "format" (or "display", "show") is a bare code a format: "set X to 30%" sets a value.
  / ("format"i / "display"i / "show"i) !WordChar __ target:$((!(__ ("as"i / "with"i / "using"i / "in"i) __ (("the"i __)? ("number format"i / "format code"i / "format"i) __)? FormatCode End) .)+) __ ("as"i / "with"i / "using"i / "in"i) __ (("the"i __)? ("number format"i / "format code"i / "format"i) __)? spec:FormatCode End {
      return { type: 'format', target: options.parseTarget(target), spec }
    }
  / ("render"i / "make"i / "turn"i / "set"i) __ target:$((!(__ Styles End) .)+) __ styles:Styles End { return { type: 'format', target: options.parseTarget(target), spec: { kind: 'style', ...styles } } }
  / verb:StyleVerb __ target:TargetText { return { type: 'format', target, spec: { kind: 'style', ...verb } } }
  / ("colour"i / "color"i) __ target:$((!(__ ("in"i __)? Colour End) .)+) __ ("in"i __)? colour:Colour End { return { type: 'format', target: options.parseTarget(target), spec: { kind: 'style', style: { color: colour.css }, words: colour.name } } }
  / ("highlight"i / "shade"i / "fill"i) __ target:$((!(__ ("in"i __ / "with"i __)? Colour End) .)+) __ ("in"i __ / "with"i __)? colour:Colour End {
      return { type: 'format', target: options.parseTarget(target), spec: { kind: 'style', style: { fill: colour.css }, words: colour.name + ' fill' } }
    }
  / ("display"i / "round"i / "show"i / "give"i / "set"i / "use"i) __ ("the display of"i __)? target:$((!(__ ("with"i / "to"i / "at"i)? _ Decimals End) .)+) __ (("with"i / "to"i / "at"i) __)? decimals:Decimals End {
      return { type: 'format', target: options.parseTarget(target), spec: { kind: 'decimals', decimals } }
    }
  / ("display"i / "show"i / "give"i / "set"i / "use"i) __ decimals:Decimals __ ("for"i / "on"i / "in"i / "to"i) __ target:TargetText { return { type: 'format', target, spec: { kind: 'decimals', decimals } } }
  / ("center"i / "centre"i) __ target:TargetText { return { type: 'format', target, spec: { kind: 'style', style: { align: 'center' }, words: 'centred' } } }
  / "align"i __ target:$((!(__ ("to the"i __)? ("center"i / "centre"i / "right"i / "left"i) End) .)+) __ ("to the"i __)? side:$("center"i / "centre"i / "right"i / "left"i) End {
      const align = side.toLowerCase().replace('centre', 'center')
      return { type: 'format', target: options.parseTarget(target), spec: { kind: 'style', style: { align }, words: align + '-aligned' } }
    }
StyleVerb
  = ("embolden"i / "bolden"i / "bold"i) !WordChar { return { style: { bold: true }, words: 'bold' } }
  / ("italicize"i / "italicise"i / "italic"i) !WordChar { return { style: { italic: true }, words: 'italic' } }
  / "underline"i !WordChar { return { style: { underline: true }, words: 'underlined' } }
  / "unbold"i !WordChar { return { style: { bold: false }, words: 'not bold' } }

// ---- borders and wrapping ------------------------------------------------------------------------

BorderWords = ("all borders"i / "grid lines"i / "gridlines"i / "borders"i / "border"i / "lines"i) !WordChar
Borders
  = ("add"i / "put"i / "apply"i / "draw"i / "give"i) __ (("thin"i / "an"i / "a"i) __)? ("outline"i / "box"i / BorderWords) __ ("around"i / "round"i) __ target:TargetText { return { type: 'format', target, spec: { kind: 'outline' } } }
  / ("add"i / "put"i / "apply"i / "draw"i / "give"i) __ (("thin"i / "an"i / "a"i) __)? ("bottom border"i / "underline"i / "bottom line"i / "rule"i / "line"i) __ ("under"i / "below"i / "beneath"i / "on"i / "to"i) __ target:TargetText {
      return { type: 'format', target, spec: { kind: 'style', style: { borders: { bottom: { line: 'thin' } } }, words: 'a bottom border' } }
    }
  / ("add"i / "put"i / "apply"i / "draw"i / "give"i / "set"i) __ (("thin"i / "an"i / "a"i) __)? BorderWords __ ("to"i / "on"i / "for"i / "in"i) __ target:TargetText {
      const thin = { line: 'thin' }
      return { type: 'format', target, spec: { kind: 'style', style: { borders: { top: thin, right: thin, bottom: thin, left: thin } }, words: 'bordered (a thin line on every edge of each cell)' } }
    }
  / ("remove"i / "clear"i / "delete"i / "erase"i) __ ("the"i __ / "all"i __ / "any"i __)? BorderWords __ ("from"i / "on"i / "of"i / "in"i / "around"i) __ target:TargetText {
      return { type: 'format', target, spec: { kind: 'style', style: { borders: null }, words: 'without borders' } }
    }
  / "wrap"i __ ("the"i __)? (("text"i / "words"i) __ ("in"i / "of"i / "on"i) __)? target:TargetText { return { type: 'format', target, spec: { kind: 'style', style: { wrap: true }, words: 'wrapped text' } } }

// ---- totals -------------------------------------------------------------------------------------

AggregateWord
  = word:$("subtotal"i / "average"i / "maximum"i / "minimum"i / "median"i / "total"i / "count"i / "mean"i / "sum"i / "avg"i / "max"i / "min"i) !WordChar { return AGGREGATES[word.toLowerCase()] }
AggregateVerb
  = ("total up"i / "sum up"i / "add up"i) !WordChar { return 'SUM' }
  / ("calculate"i / "work out"i / "compute"i / "give me"i / "what is"i / "what's"i / "find"i / "show"i / "get"i) __ ("the"i / "an"i / "a"i) __ fn:AggregateWord __ "of"i !WordChar { return fn }
  / fn:AggregateWord __ ("of"i __ / "up"i __)? &(.) { return fn }
AggregateLink = ("and put the result in"i / "putting the result in"i / "with the result in"i / "and write it to"i / "and place it in"i / "and show it in"i / "and put it in"i / "underneath"i / "below"i / "under"i / "into"i / "in"i / "at"i / "to"i) !WordChar (__ "cell"i !WordChar)?
AggregateTail = __ AggregateLink __ .+
AggregateSource = text:$((!AggregateTail .)+) { return options.parseTarget(text) }
// Cells named outright ("average B2 to D2 in E2"); whole rows and columns go through the words below.
NamedRange = A1Range / AddressRange
Aggregate
  = fn:AggregateVerb _ source:NamedRange __ AggregateLink __ destination:TargetText { return { type: 'aggregate', fn, source, destination } }
  / fn:AggregateVerb _ source:AggregateSource __ AggregateLink __ destination:TargetText { return { type: 'aggregate', fn, source, destination } }
  / ("calculate"i / "compute"i / "insert"i / "write"i / "enter"i / "place"i / "put"i / "add"i) __ ("the"i / "an"i / "a"i) __ fn:AggregateWord __ (("for"i / "of"i) __)? source:AggregateSource __ AggregateLink __ destination:TargetText {
      return { type: 'aggregate', fn, source, destination }
    }
  / ("calculate"i / "compute"i / "insert"i / "write"i / "enter"i / "place"i / "put"i / "add"i) __ ("the"i / "an"i / "a"i) __ fn:AggregateWord __ ("under"i / "below"i / "for"i / "of"i / "to"i) __ source:TargetText { return { type: 'aggregate', fn, source } }
  / fn:AggregateVerb _ source:TargetText { return { type: 'aggregate', fn, source } }

TotalRow
  = ("insert"i / "create"i / "append"i / "make"i / "add"i / "put"i) __ ("a"i __ / "the"i __)? ("summary"i / "totals"i / "total"i / "sum"i) __ ("line"i / "row"i) !WordChar under:(__ ("at the bottom of"i / "beneath"i / "below"i / "under"i / "for"i / "to"i / "on"i) __ t:TargetText { return t })? End {
      return { type: 'total_row', ...(under ? { table: under } : {}) }
    }
  / ("total"i / "sum"i) __ ("all the"i / "every"i / "each"i / "all"i) __ ("column"i "s"?) !WordChar under:(__ ("on"i / "in"i / "of"i) __ t:TargetText { return t })? End {
      return { type: 'total_row', ...(under ? { table: under } : {}) }
    }

// ---- sort ---------------------------------------------------------------------------------------

SortOrder
  = ("in"i __)? ("from largest to smallest"i / "from highest to lowest"i / "reverse alphabetically"i / "reverse alphabetical"i / "largest to smallest"i / "highest to lowest"i / "from high to low"i / "largest first"i / "biggest first"i / "highest first"i / "newest first"i / "high to low"i / "descending"i / "decreasing"i / "reverse"i / "z to a"i / "desc"i / "z-a"i) !WordChar (__ "order"i)? { return 'desc' }
  / ("in"i __)? ("from smallest to largest"i / "from lowest to highest"i / "smallest to largest"i / "lowest to highest"i / "from low to high"i / "alphabetically"i / "smallest first"i / "alphabetical"i / "lowest first"i / "oldest first"i / "low to high"i / "increasing"i / "ascending"i / "a to z"i / "asc"i / "a-z"i) !WordChar (__ "order"i)? { return 'asc' }
SortKey
  = ColumnWord __ letters:Letters !WordChar { return { column: letters.toUpperCase() } }
  / letters:Letters !WordChar &(End / __ SortOrder) &{ return letters.length === 1 } { return { column: letters.toUpperCase() } }
  / ("the"i __)? text:$((!(__ SortOrder) .)+) { return { header: text.trim() } }
SortWhole = ("the"i __)? ("whole"i __ / "entire"i __)? ("table"i / "sheet"i / "range"i / "data"i / "list"i / "rows"i) &SortStop { return null }
SortStop = _ !. / __ ("using"i / "by"i / "on"i) __ / __ SortOrder
Sort
  = ("arrange"i / "reorder"i / "order"i / "sort"i / "rank"i) !WordChar target:(__ !(("using"i / "by"i / "on"i) !WordChar) !SortOrder t:(SortWhole / $((!SortStop .)+)) { return t })? key:(__ ("using"i / "by"i / "on"i) __ k:SortKey { return k })? order:(__ o:SortOrder { return o })? key2:(__ ("using"i / "by"i / "on"i) __ k:SortKey { return k })? End {
      const parsed = target ? options.parseTarget(target) : null
      return { type: 'sort', ...(parsed ? { target: parsed } : {}), ...(key ?? key2 ? { key: key ?? key2 } : {}), order: order ?? 'asc' }
    }

// ---- clear --------------------------------------------------------------------------------------

ClearVerb = ("clear"i (__ "out"i)? / "erase"i / "empty"i / "blank out"i / "blank"i / "wipe"i (__ "out"i)? / "reset"i) !WordChar
ContentsOf = ("the"i __)? ("all values"i / "contents"i / "content"i / "numbers"i / "values"i / "inputs"i / "value"i / "data"i) __ ("from"i / "of"i / "in"i / "on"i) !WordChar __
Clear
  = ClearVerb __ ContentsOf? target:TargetText { return { type: 'clear', target } }
  / DeleteVerb __ ContentsOf target:TargetText { return { type: 'clear', target } }
  / DeleteVerb __ target:(A1Range / AddressRange / (CellWord? a:Address { return a })) sheet:SheetSuffix? End { return { type: 'clear', target: sheet ? { ...target, sheet } : target } }
  / ("delete"i / "remove"i / "erase"i) __ ("all the data"i / "everything"i / "all values"i / "all data"i) sheet:SheetSuffix? End { return { type: 'clear', target: sheet ? { kind: 'sheet', sheet } : { kind: 'sheet' } } }

// ---- the sheet's layout: frozen panes, hidden rows and columns, widths --------------------------

// "freeze the top row", "freeze the first 2 columns", "freeze panes at B2", "unfreeze", "hide column C",
// "unhide rows 5 to 7", "set the width of column A to 30", "make column A wider".
FirstWord = ("top"i / "first"i / "left"i / "leftmost"i / "left-most"i) !WordChar
FreezeRows
  = Article? FirstWord __ n:(c:CountWord __ { return c })? ("rows"i / "row"i) !WordChar { return n ?? 1 }
  / Article? ("header row"i / "headers"i / "heading row"i / "header"i / "headings"i) !WordChar { return 'header' }
  / RowWord __ "1"  !WordChar to:(SpanJoin RowWord? _ n:Integer { return n })? { return to ?? 1 }
FreezeColumns
  = Article? FirstWord __ n:(c:CountWord __ { return c })? ("columns"i / "column"i) !WordChar { return n ?? 1 }
  / Article? ("label column"i / "labels"i / "row labels"i) !WordChar { return 'labels' }
  / ColumnWord __ "A"i !WordChar to:(SpanJoin ColumnWord? _ l:Letters !WordChar { return l })? { return to ? lettersToCount(to) : 1 }
FreezeWhat
  = rows:FreezeRows columns:(__ ("and"i / "&" / "plus"i) __ c:FreezeColumns { return c })? { return { rows, columns: columns ?? 0 } }
  / columns:FreezeColumns rows:(__ ("and"i / "&" / "plus"i) __ r:FreezeRows { return r })? { return { rows: rows ?? 0, columns } }
  / ("the"i __)? ("panes"i / "pane"i) __ ("at"i / "on"i / "from"i / "below and right of"i / "above and left of"i) __ CellWord? address:CellAddress { return { at: address } }
  / ("at"i / "on"i) __ CellWord? address:CellAddress { return { at: address } }
LayoutSheet = sheet:SheetSuffix { return sheet }
SheetLayout
  = ("unfreeze"i / "remove the freeze"i / "clear the freeze"i / "remove freeze panes"i / "remove the frozen panes"i) !WordChar (__ ("all"i __)? ("the"i __)? ("panes"i / "pane"i / "rows"i / "columns"i / "everything"i))? sheet:LayoutSheet? End {
      return { type: 'layout', freeze: { rows: 0, columns: 0 }, ...(sheet ? { sheet } : {}) }
    }
  / ("freeze"i (__ "panes"i)? / "lock"i) !WordChar __ what:FreezeWhat sheet:LayoutSheet? End { return { type: 'layout', freeze: what, ...(sheet ? { sheet } : {}) } }
  / verb:("unhide"i / "show"i / "reveal"i / "hide"i) !WordChar __ ("all"i __ ("the"i __)? ("hidden"i __)?)? target:$((!(__ ("again"i / "back"i) !WordChar End / End) .)+) (__ ("again"i / "back"i))? End &{ return verb.toLowerCase() === 'hide' || /\b(rows?|columns?|cols?)\b/i.test(target) || /^[a-z]{1,3}(:[a-z]{1,3})?$/i.test(target) || /^\d+(:\d+)?$/.test(target) } {
      return { type: 'layout', [verb.toLowerCase() === 'hide' ? 'hide' : 'unhide']: options.parseTarget(target) }
    }
  / ("set"i / "change"i / "make"i) __ ("the"i __)? ("width of"i / "column width of"i) __ target:$((!(__ "to"i __ Digits) .)+) __ "to"i __ width:Digits (_ ("pixels"i / "px"i / "characters"i / "chars"i))? End { return { type: 'layout', width: { target: options.parseTarget(target), value: plain(width), unit: /pix|px/i.test(text()) ? 'pixels' : /char/i.test(text()) ? 'characters' : undefined } } }
  / ("set"i / "change"i / "make"i) __ target:$((!(__ ("width"i / "'s width"i) __) .)+) ("'s"i)? __ "width"i __ ("to"i / "=")? _ width:Digits (_ ("pixels"i / "px"i / "characters"i / "chars"i))? End { return { type: 'layout', width: { target: options.parseTarget(target), value: plain(width), unit: /pix|px/i.test(text()) ? 'pixels' : /char/i.test(text()) ? 'characters' : undefined } } }
  / ("make"i / "set"i) __ target:$((!(__ ("wider"i / "narrower"i / "broader"i / "thinner"i / "skinnier"i)) .)+) __ change:("wider"i / "broader"i / "narrower"i / "thinner"i / "skinnier"i) End { return { type: 'layout', width: { target: options.parseTarget(target), change: /wider|broader/i.test(change) ? 'wider' : 'narrower' } } }
  / ("widen"i / "narrow"i) !WordChar __ target:TargetText { return { type: 'layout', width: { target, change: /^widen/i.test(text()) ? 'wider' : 'narrower' } } }

// ---- move ---------------------------------------------------------------------------------------

// "move B2:C4 to E2", "cut A7:B7 and paste it in A10", "move the Notes row to row 10": cut and paste,
// formulas that read the cells following them.
MoveLink = __ (("and"i __)? "paste"i (__ ("it"i / "them"i))? __ ("into"i / "in"i / "to"i / "at"i) / "over to"i / "into"i / "to"i) !WordChar __
// "swap rows 3 and 4", "swap columns B and C", "swap the EBITDA and taxes rows": three moves through an
// empty row or column, so that formulas follow both.
SwapLine = ("the"i __)? text:$((!(__ ("and"i / "with"i) __) !(__ ("rows"i / "row"i / "lines"i) End) .)+) { return text }
Swap
  = "swap"i __ RowWord __ a:Integer __ ("and"i / "with"i) __ (RowWord __)? b:Integer End { return { type: 'swap', a: { kind: 'rows', from: a, to: a }, b: { kind: 'rows', from: b, to: b } } }
  / "swap"i __ ColumnWord __ a:Letters !WordChar __ ("and"i / "with"i) __ (ColumnWord __)? b:Letters !WordChar End { return { type: 'swap', a: { kind: 'columns', from: a.toUpperCase(), to: a.toUpperCase() }, b: { kind: 'columns', from: b.toUpperCase(), to: b.toUpperCase() } } }
  / "swap"i __ a:SwapLine __ ("and"i / "with"i) __ b:SwapLine __ ("rows"i / "lines"i) End { return { type: 'swap', a: { kind: 'label', text: a }, b: { kind: 'label', text: b } } }
  / "swap"i __ a:SwapLine __ ("row"i / "line"i) __ ("and"i / "with"i) __ b:SwapLine __ ("row"i / "line"i) End { return { type: 'swap', a: { kind: 'label', text: a }, b: { kind: 'label', text: b } } }
Move
  = Swap
  / ("move"i / "relocate"i) !WordChar __ source:$((!MoveLink .)+) MoveLink destination:TargetText End { return { type: 'move', source: options.parseTarget(source), destination } }
  / "cut"i !WordChar __ source:$((!(__ ("and"i __)? "paste"i !WordChar) .)+) MoveLink destination:TargetText End { return { type: 'move', source: options.parseTarget(source), destination } }

// ---- charts -------------------------------------------------------------------------------------

ChartKind
  = ("histogram"i / "column"i / "bar"i) !WordChar { return 'bar' }
  / ("trend"i / "line"i) !WordChar { return 'line' }
  / ("doughnut"i / "donut"i / "pie"i) !WordChar { return 'pie' }
  / "area"i !WordChar { return 'area' }
  / ("waterfall"i / "bridge"i) !WordChar { return 'waterfall' }
  / ("combination"i / "combo"i) !WordChar { return 'combo' }
  / word:$("candlestick"i / "scatter"i / "bubble"i / "funnel"i / "radar"i / "gantt"i) !WordChar { return { unsupported: word.toLowerCase() } }
ChartNoun = ("visualisation"i / "visualization"i / "chart"i / "graph"i / "plot"i) !WordChar
ChartTitle = __ ("with the title"i / "with title"i / "entitled"i / "titled"i / "called"i / "named"i) __ title:(Quoted / $(.+)) { return title.trim() }
// "revenue over the years": the time the row spans, not more of its name.
OverTime = __ ("over the years"i / "over the periods"i / "over the period"i / "across the years"i / "through the years"i / "over time"i / "by year"i / "per year"i / "each year"i) !WordChar
ChartTail = ChartTitle / OverTime / __ ("as"i / "in"i) __ ("a"i __ / "an"i __)? ChartKind (__ ChartNoun)? / _ !.
ChartSource = text:$((!ChartTail .)+) { return options.parseTarget(text) }
Chart
  = (("generate"i / "give me"i / "show me"i / "create"i / "insert"i / "build"i / "make"i / "draw"i / "show"i / "plot"i / "add"i / "put"i) __)? (("the"i / "an"i / "a"i) __)? kind:(k:ChartKind __ { return k })? ChartNoun __ ("based on"i / "showing"i / "using"i / "from"i / "with"i / "over"i / "for"i / "of"i) __ ("the"i __ ("values"i / "range"i / "data"i) __ ("in"i / "of"i) __)? source:ChartSource OverTime? title:ChartTitle? End {
      return { type: 'chart', chartType: kind ?? 'bar', source, ...(title ? { title } : {}) }
    }
  / ("visualise"i / "visualize"i / "chart"i / "graph"i / "plot"i / "draw"i) __ source:ChartSource OverTime? kind:(__ ("as"i / "in"i) __ ("a"i __ / "an"i __)? k:ChartKind (__ ChartNoun)? { return k })? title:ChartTitle? End {
      return { type: 'chart', chartType: kind ?? 'line', source, ...(title ? { title } : {}) }
    }

// ---- sensitivity tables -------------------------------------------------------------------------

AxisName
  = ("weighted average cost of capital"i / "the discount rate"i / "cost of capital"i / "discount rate"i / "the wacc"i / "wacc"i) !WordChar { return 'wacc' }
  / ("perpetuity growth rate"i / "perpetual growth rate"i / "terminal growth rate"i / "perpetuity growth"i / "perpetual growth"i / "long-term growth"i / "long term growth"i / "terminal growth"i / "growth rate"i / "growth"i / "tgr"i / "g"i) !WordChar { return 'growth' }
RateBound
  = value:Percent { return { value: value.value, percent: true } }
  / digits:Digits { return { value: Number(digits.replace(/,/g, '')), percent: false } }
Step = __ ("in increments of"i / "with a step of"i / "increments of"i / "in steps of"i / "stepping by"i / "steps of"i / "every"i / "step"i / "by"i) __ step:RateBound { return step }
AxisRange
  = ("from"i __ / "between"i __ / "of"i __ / "at"i __ / ":" _)? low:RateBound _ ("through"i / "until"i / "and"i / "to"i / "-" / "–") _ high:RateBound step:Step? {
      // "8 to 12%": a bound without its sign takes its partner's.
      const percent = low.percent || high.percent
      const scale = (bound) => (bound.percent || !percent ? bound.value : bound.value / 100)
      return { from: scale(low), to: scale(high), ...(step ? { step: step.percent || !percent ? step.value : step.value / 100 } : {}) }
    }
Axis = name:AxisName _ range:AxisRange { return { name, ...range } }
AxisJoin = _ ("on one axis and"i / "against"i / "versus"i / "across"i / "with"i / "vs."i / "and"i / "vs"i / "by"i / "x"i / "×" / ",") !WordChar _
SensitivityIntro
  = (("generate"i / "give me"i / "prepare"i / "create"i / "set up"i / "build"i / "make"i / "show"i / "add"i / "run"i / "do"i) __)? (("the"i / "an"i / "a"i) __)? ("two-way"i __ / "2d"i __ / "two way"i __)?
    ("sensitivity table"i / "sensitivity"i / "data table"i) (__ ("analysis"i / "matrix"i / "table"i / "grid"i))? output:(__ ("for"i / "of"i / "on"i) __ !Axis o:$((!(__ ("against"i / "across"i / "using"i / "with"i / "over"i / "for"i / "to"i / "on"i) !WordChar) !(_ Axis) .)+) { return o.trim() })?
    (_ ("against"i / "across"i / "using"i / "with"i / "over"i / "for"i / "to"i / "on"i / "of"i / ":" / "-") !WordChar)? _ { return output }
Sensitivity
  = output:SensitivityIntro? first:Axis second:(AxisJoin a:Axis { return a })? End {
      return { type: 'sensitivity', axes: second ? [first, second] : [first], ...(output ? { output } : {}) }
    }
  // "add a sensitivity table for WACC and terminal growth": the ranges around the model's own values.
  / (("generate"i / "give me"i / "prepare"i / "create"i / "set up"i / "build"i / "make"i / "show"i / "add"i / "run"i / "do"i) __)? (("the"i / "an"i / "a"i) __)? ("two-way"i __ / "2d"i __ / "two way"i __)? ("sensitivity table"i / "sensitivity"i / "data table"i) (__ ("analysis"i / "matrix"i / "table"i / "grid"i))? __ ("for"i / "of"i / "on"i / "over"i) __ AxisName (AxisJoin AxisName)? End {
      return { type: 'sensitivity', axes: [] }
    }
  / name:AxisName __ ("sensitivity"i) (__ ("analysis"i / "table"i / "grid"i))? _ range:AxisRange second:(AxisJoin a:Axis { return a })? End {
      return { type: 'sensitivity', axes: second ? [{ name, ...range }, second] : [{ name, ...range }] }
    }

// ---- more periods -------------------------------------------------------------------------------

// "add 2 more years", "extend the model to 2030", "roll the forecast forward one year", "project revenue
// for 3 more years at 8% growth": new period columns after the last, each row carried on from it.
ExtendPeriods
  = ("another"i / "one more"i / "an extra"i / "an additional"i) __ ("year"i / "period"i) !WordChar ExtendOf? { return 1 }
  / n:CountWord __ (("more"i / "additional"i / "extra"i / "further"i / "new"i) __)? ("years"i / "year"i / "periods"i / "period"i / "yrs"i / "yr"i) !WordChar ExtendOf? { return n }
ExtendOf = __ "of"i __ ("projections"i / "projection"i / "forecasts"i / "forecast"i / "data"i) !WordChar
ExtendYear = ("fy"i _ "'"? / "year"i __)? digits:$([0-9][0-9] [0-9]? [0-9]?) !WordChar &{ return digits.length === 2 || digits.length === 4 } ("e"i / "f"i / "p"i)? !WordChar {
    return digits.length === 2 ? 2000 + Number(digits) : Number(digits)
  }
ExtendSpan
  = ("by"i __ / "for"i __ / "with"i __ / "out"i __)? count:ExtendPeriods { return { count } }
  / ("out to"i / "through"i / "until"i / "thru"i / "into"i / "to"i) __ ("the"i __)? ("end of"i __)? to:ExtendYear { return { to } }
ExtendRate = ("growing at"i __ / "growing by"i __ / "growing"i __ / "at"i __ / "with"i __ / "by"i __)? rate:Percent (__ ("annual"i __)? "growth"i !WordChar)? (__ PerYear)? { return rate.value }
ExtendTail = before:(r:ExtendRate __ { return r })? span:ExtendSpan after:(__ r:ExtendRate { return r })? End {
    return { ...span, ...(before !== null || after !== null ? { rate: before ?? after } : {}) }
  }
ExtendVerb = ("extend"i / "roll forward"i / "roll"i / "project"i / "forecast"i / "carry forward"i / "carry"i / "continue"i / "push out"i / "push"i) !WordChar
Extend
  = ("add"i / "append"i / "tack on"i) __ count:ExtendPeriods what:(__ ("to"i / "onto"i / "on"i / "in"i / "for"i) __ w:$((!(__ ExtendRate End / End) .)+) { return w })? rate:(__ r:ExtendRate { return r })? End {
      return extension(what, { count, ...(rate !== null ? { rate } : {}) }, options.parseTarget)
    }
  / ExtendVerb what:(__ !ExtendTail w:$((!(__ ("forward"i __)? ExtendTail) .)+) { return w })? &{ return what === null || !/%|per ?cent|\bfrom\b|\bgrow/i.test(what) } (__ "forward"i)? __ tail:ExtendTail {
      return extension(what, tail, options.parseTarget)
    }

// ---- growth projections -------------------------------------------------------------------------

PerYear = ("year over year"i / "year-over-year"i / "every year"i / "each year"i / "per annum"i / "per year"i / "annually"i / "a year"i / "yearly"i / "per yr"i / "annual"i / "p.a."i / "a yr"i / "yoy"i / "pa"i) !WordChar
PeriodBound
  = ("year"i / "yr"i) __ n:Integer { return { year: n } }
  / "fy"i _ "'"? digits:$[0-9]+ { return { calendar: digits.length === 2 ? 2000 + Number(digits) : Number(digits) } }
  / n:Integer { return n >= 1900 ? { calendar: n } : { year: n } }
Span
  = ("between"i / "during"i / "from"i / "over"i / "for"i / "in"i) __ ("the"i __)? ("periods"i / "period"i / "years"i / "year"i)? _ from:PeriodBound _ ("through"i / "until"i / "thru"i / "and"i / "to"i / "-" / "–") _ ("year"i __)? to:PeriodBound {
      return { from, to }
    }
  / ("over"i / "for"i / "in"i) __ ("the"i __)? ("next"i __ / "following"i __)? n:CountWord __ ("periods"i / "years"i) !WordChar { return { next: n } }
GrowthRate = ("growing at"i __ / "growing by"i __ / "growing"i __ / "with growth of"i __ / "by"i __ / "at"i __ / "of"i __)? rate:Percent { return rate.value }
GrowthTail = __ GrowthRate (__ PerYear)? (__ Span)? End / __ ("annual growth"i / "growth"i) .*
Growth
  = ("roll forward"i / "forecast"i / "increase"i / "project"i / "extend"i / "grow"i) !WordChar __ what:$((!GrowthTail .)+) __ rate:GrowthRate per:(__ PerYear)? span:(__ s:Span { return s })? End &{ return per !== null || span !== null || /^(grow|project|forecast)/i.test(text()) } {
      return { type: 'grow', target: options.parseTarget(what), rate, ...(span ? { span } : {}) }
    }
  / (("assume"i / "apply"i / "model"i / "use"i / "add"i / "set"i / "put"i) __)? (("the"i / "an"i / "a"i) __)? rate:Percent __ (PerYear __)? ("growth rate"i / "growth"i) (__ PerYear)? __ ("for"i / "to"i / "on"i / "in"i) __ what:$((!(__ Span End) .)+) span:(__ s:Span { return s })? End {
      return { type: 'grow', target: options.parseTarget(what), rate: rate.value, ...(span ? { span } : {}) }
    }
  / (("assume"i / "apply"i / "model"i / "add"i / "set"i / "use"i) __)? what:$((!(__ ("growing"i / "growth"i / "grows"i / "grow"i) !WordChar) .)+) &{ return !COMMAND_VERB.test(what) } __ ("growing"i / "growth"i / "grows"i / "grow"i) (__ ("rate of"i / "of"i / "at"i / "by"i))? __ rate:Percent (__ PerYear)? span:(__ s:Span { return s })? End {
      return { type: 'grow', target: options.parseTarget(what), rate: rate.value, ...(span ? { span } : {}) }
    }

// ---- questions ----------------------------------------------------------------------------------

// "what is the enterprise value?", "what's the total revenue?", "how much is revenue in 2026?": read and
// answered, nothing written.
Question
  = ("what is"i / "what's"i / "whats"i / "what are"i / "what was"i / "what were"i / "how much is"i / "how much was"i / "how much are"i / "show me"i) !WordChar __ fn:(("the"i / "an"i / "a"i / "our"i) __ f:AggregateWord (__ "of"i)? !WordChar __ { return f })? (("in"i / "at"i) __)? target:TargetText { return { type: 'read', target, ...(fn ? { fn } : {}) } }

// ---- undo ---------------------------------------------------------------------------------------

Undo = ("undo"i / "revert"i / "roll back"i / "take back"i) !WordChar (__ ("that"i / "it"i / "this"i / "the last change"i / "your last change"i / "your changes"i / "the changes"i / "what you did"i / "everything"i) !WordChar)? End { return { type: 'undo' } }

// ---- a new projected line -----------------------------------------------------------------------

// "create a 5 year revenue projection growing 10% a year starting at 1000", "project sales of 500 at 8%
// growth for 5 years from 2025": a line set up from nothing, its years, its first value and its growth.
ProjectVerb = ("set up"i / "create"i / "build"i / "make"i / "add"i / "project"i / "forecast"i / "give me"i) !WordChar
ProjectYears
  = n:Integer _ "-"? _ ("years"i / "year"i / "yrs"i / "yr"i / "periods"i / "period"i) !WordChar { return { periods: n } }
  / ("over"i / "for"i) __ ("the"i __)? ("next"i __)? n:CountWord __ ("years"i / "periods"i) !WordChar { return { periods: n } }
ProjectStart
  = ("starting at"i / "starting from"i / "starting with"i / "beginning at"i / "starting"i / "from"i / "of"i / "at"i) __ value:(Money / PlainNumber) !(_ ("%" / "percent"i)) !(__ ("growth"i / "a year"i / "per year"i / "annually"i)) &{ return value.value < 1900 || value.value > 2100 || !Number.isInteger(value.value) } { return { start: value } }
ProjectRate
  = ("growing at"i / "growing by"i / "growing"i / "with growth of"i / "with"i / "at"i / "by"i) __ rate:Percent (__ ("annual"i __)? ("growth"i / "a year"i / "per year"i / "annually"i / "each year"i / "yoy"i))? { return { rate: rate.value } }
  / rate:Percent __ ("annual"i __ / "yearly"i __)? ("growth"i / "a year"i / "per year"i / "annually"i) { return { rate: rate.value } }
ProjectFirstYear
  = ("starting in"i / "beginning in"i / "from"i / "in"i) __ ("fy"i _ )? year:$([12][0-9][0-9][0-9]) !WordChar { return { firstYear: Number(year) } }
ProjectNoun = ("projection"i / "forecast"i / "schedule"i / "line"i / "row"i) !WordChar { return { noun: true } }
ProjectFiller = ("a year"i / "per year"i / "annually"i / "each year"i / "and"i / "with"i / "the"i / "an"i / "a"i / "for"i / "of"i) !WordChar { return {} }
ProjectWord = word:$[A-Za-z&'-]+ !WordChar { return { word } }
ProjectItem = ProjectYears / ProjectStart / ProjectRate / ProjectFirstYear / ProjectNoun / ProjectFiller / ProjectWord
Projection
  = ProjectVerb __ first:ProjectItem rest:(_ item:ProjectItem { return item })* End &{ return projection([first, ...rest]) !== null } { return projection([first, ...rest]) }

// ---- explain and audit --------------------------------------------------------------------------

ExplainTail = __ ("calculate"i "d"? / "computed"i / "compute"i / "do"i / "does"i / "work"i / "works"i / "mean"i / "means"i / "come from"i / "comes from"i / "derived"i / "worked out"i / "made up"i / "built"i / "formed"i) (__ .*)? End
ExplainTarget = text:$((!ExplainTail .)+) { return options.parseTarget(text) }
FormulaWords = ("the"i __)? ("calculation"i / "formulas"i / "formula"i / "logic"i / "maths"i / "calc"i / "math"i) __ ("used for"i / "used in"i / "behind"i / "for"i / "in"i / "of"i / "at"i) __
Explain
  = ("help me understand"i / "walk me through"i / "tell me about"i / "walk through"i / "break down"i / "interpret"i / "describe"i / "explain"i / "clarify"i / "trace"i) !WordChar __ FormulaWords? target:ExplainTarget ExplainTail? End { return { type: 'explain', target } }
  / ("what is in"i / "where does"i / "what does"i / "what's in"i / "how does"i / "what do"i / "how are"i / "how do"i / "how is"i / "why is"i / "how's"i) !WordChar __ FormulaWords? target:ExplainTarget ExplainTail End { return { type: 'explain', target } }
  / ("what is"i / "what's"i) __ FormulaWords target:TargetText { return { type: 'explain', target } }

AuditVerb = ("sanity check"i / "sanity-check"i / "look over"i / "are there"i / "validate"i / "look for"i / "is there"i / "inspect"i / "review"i / "verify"i / "detect"i / "audit"i / "check"i / "scan"i / "find"i / "spot"i / "any"i / "run"i / "do"i) !WordChar
AuditNoun = ("broken formulas"i / "inconsistencies"i / "formula errors"i / "spreadsheet"i / "hard-coded"i / "hard coded"i / "hardcodes"i / "red flags"i / "workbook"i / "mistakes"i / "problems"i / "mistake"i / "problem"i / "sheets"i / "errors"i / "issues"i / "model"i / "sheet"i / "error"i / "issue"i / "audit"i) !WordChar
Audit
  = AuditVerb (__ !AuditNoun Word)* __ AuditNoun (__ Word)* End { return { type: 'audit' } }
  / "audit"i End { return { type: 'audit' } }

// ---- financial models ---------------------------------------------------------------------------

ModelVerb = ("construct"i / "generate"i / "develop"i / "prepare"i / "produce"i / "give me"i / "create"i / "set up"i / "i need"i / "i want"i / "build"i / "draft"i / "make"i / "new"i) !WordChar
CreateModel = request:ModelRequestBody &{ return request.modelType !== null } { return { type: 'create_model', request } }
ModelRequestBody = (ModelVerb __)? ("me"i __)? items:ModelItems {
    const found = { modelType: null, companyName: null, parameters: {} }
    for (const item of items) {
      if (item.modelType) found.modelType = found.modelType ?? item.modelType
      if (item.companyName) found.companyName = found.companyName ?? item.companyName
      if (item.parameters) Object.assign(found.parameters, item.parameters)
    }
    return found
  }
ModelItems = first:ModelItem rest:(_ item:ModelItem { return item })* { return [first, ...rest] }
ModelItem = ModelYears / ModelGrowth / ModelType / ModelCompany / ModelFiller
ModelType
  = ("discounted cash flow"i / "discounted-cash-flow"i / "valuation"i / "dcf"i) !WordChar { return { modelType: 'dcf' } }
  / ("leveraged buy-out"i / "leveraged buyout"i / "leveraged-buyout"i / "buyout"i / "lbo"i) !WordChar { return { modelType: 'lbo' } }
  / ("integrated financial statements"i / "financial statements"i / "three-statement"i / "three statement"i / "3-statement"i / "3 statement"i / "3-statement"i / "integrated"i) !WordChar { return { modelType: 'three-statement' } }
  / ("software as a service"i / "recurring revenue"i / "subscription"i / "saas"i) !WordChar { return { modelType: 'saas' } }
  / ("early-stage"i / "early stage"i / "start-up"i / "start up"i / "startup"i / "venture"i) !WordChar { return { modelType: 'startup' } }
  / ("real estate"i / "real-estate"i / "realestate"i / "property"i) !WordChar { return { modelType: 'real-estate' } }
  / ("financial model"i / "finance model"i) !WordChar { return { modelType: 'default' } }
ModelYears
  = ("with"i __ / "over"i __ / "for"i __ / "and"i __ / "covering"i __)? ("the"i __ / "a"i __)? ("next"i __)? n:Integer _ "-"? _ ("years"i / "year"i / "yrs"i / "yr"i) ("'s"i)? (__ ("of"i __)? ("projections"i / "projection"i / "forecasts"i / "projected"i / "forecast"i / "explicit"i / "horizon"i) !WordChar)? (__ ("projection"i / "forecast"i) !WordChar)? {
      return { parameters: { projectionYears: n } }
    }
  / ("with"i __ / "and"i __)? ("projection period"i / "projection years"i / "forecast period"i / "horizon"i) _ ("of"i / "=" / ":")? _ n:Integer (__ ("years"i / "year"i))? !WordChar { return { parameters: { projectionYears: n } } }
ModelGrowth
  = ("with"i __ / "and"i __ / "using"i __ / "at"i __ / "assuming"i __)? ("a"i __ / "an"i __)? rate:Percent __ ("perpetuity"i / "perpetual"i / "long-term"i / "long term"i / "terminal"i) __ ("growth"i) (__ ("rate"i))? !WordChar {
      return { parameters: { terminalGrowthRate: Math.round(rate.value * 1e6) / 1e4 } }
    }
  / ("with"i __ / "and"i __ / "using"i __ / "assuming"i __)? ("a"i __ / "the"i __)? ("perpetuity"i / "perpetual"i / "long-term"i / "long term"i / "terminal"i) __ "growth"i (__ "rate"i)? _ ("of"i / "at"i / "is"i / "=" / ":")? _ rate:(Percent / d:Digits { return { value: Number(d) / 100 } }) {
      return { parameters: { terminalGrowthRate: Math.round(rate.value * 1e6) / 1e4 } }
    }
  / ("with"i __ / "and"i __)? "tgr"i _ ("of"i / "=" / ":")? _ rate:Percent { return { parameters: { terminalGrowthRate: Math.round(rate.value * 1e6) / 1e4 } } }
ModelCompanyStop = __ ModelYears / __ ModelGrowth / __ ("assuming"i / "covering"i / "using"i / "with"i / "over"i) !WordChar / __ ("analysis"i / "model"i) !WordChar _ !. / _ !.
ModelCompany
  = ("valuing"i / "called"i / "about"i / "named"i / "for"i / "of"i / "on"i) __ ("the"i __ ("business"i / "company"i / "firm"i) __)? ("company"i __)? name:Quoted { return { companyName: name.trim() } }
  / ("valuing"i / "called"i / "about"i / "named"i / "for"i / "of"i / "on"i) __ ("the"i __ ("business"i / "company"i / "firm"i) __)? ("company"i __)? name:$((!ModelCompanyStop .)+) { return { companyName: name.trim() } }
ModelFiller = ("spreadsheet"i / "financial"i / "analysis"i / "workbook"i / "template"i / "complete"i / "detailed"i / "models"i / "simple"i / "please"i / "model"i / "basic"i / "full"i / "with"i / "the"i / "new"i / "and"i / "an"i / "a"i / "-") !WordChar
`
