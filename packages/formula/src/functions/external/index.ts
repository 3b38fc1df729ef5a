/**
 * Functions whose value comes from outside the workbook, or from a calculation this engine does not
 * make: market data (STOCKHISTORY, the fields of linked data types), web services, OLAP cubes, pivot
 * caches, add-ins. A file keeps what they gave; a cell calling one keeps the value its file was saved
 * with (see `savedValue` in types.ts) until one of its inputs changes. Calculated without it, it
 * shows #VALUE! and says why: never #NAME?, since Excel knows these names.
 *
 * Also here: the byte-counting text functions (LENB, LEFTB...), which in a language without
 * double-byte characters count characters as their plain versions do, and ENCODEURL and PERCENTOF.
 */
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { forEachNumber } from '../helpers.js'
import { omittedAsEmpty } from '../math/numeric.js'
import { FIND, LEFT, LEN, MID, REPLACE, RIGHT, SEARCH } from '../text/basic.js'
import type { FunctionCategory, FunctionDefinition } from '../types.js'

const REACHES = {
  market: 'reads market data from the internet',
  web: 'calls a web service',
  cube: 'queries an OLAP cube through a data connection',
  rtd: 'reads a real-time data server',
  pivot: "reads a pivot table's cache",
  addin: 'calls a program outside the workbook',
  service: 'asks an online service',
  calculation: 'is not calculated by Finsheet yet',
} as const

interface Outside {
  name: string
  category: FunctionCategory
  minArgs: number
  maxArgs: number
  syntax: string
  description: string
  example: string
  reaches: keyof typeof REACHES
}

function outside({ reaches, ...metadata }: Outside): FunctionDefinition {
  const reason = `${metadata.name} ${REACHES[reaches]}: a cell keeps the value its file was saved with until one of its inputs changes`
  const error = new CellError('#VALUE!', reason)
  return { ...metadata, args: ['any'], savedValue: reason, impl: () => error }
}

const OUTSIDE: Outside[] = [
  {
    name: 'STOCKHISTORY',
    category: 'financial',
    minArgs: 2,
    maxArgs: 11,
    syntax: 'STOCKHISTORY(stock, start_date, [end_date], [interval], [headers], [property0], ...)',
    description: 'Returns historical prices of a financial instrument, from market data.',
    example: 'STOCKHISTORY("MSFT", DATE(2024,1,1), DATE(2024,3,31))',
    reaches: 'market',
  },
  {
    name: '_FV',
    category: 'lookup',
    minArgs: 2,
    maxArgs: 2,
    syntax: '_FV(linked_value, field)',
    description: 'Returns a field of a linked data type (Stocks, Geography), as A2.Price reads it.',
    example: '_FV(A2, "Price")',
    reaches: 'market',
  },
  {
    name: 'WEBSERVICE',
    category: 'web',
    minArgs: 1,
    maxArgs: 1,
    syntax: 'WEBSERVICE(url)',
    description: 'Returns what a web service answers at the address.',
    example: 'WEBSERVICE("https://example.com/rates")',
    reaches: 'web',
  },
  {
    name: 'FILTERXML',
    category: 'web',
    minArgs: 2,
    maxArgs: 2,
    syntax: 'FILTERXML(xml, xpath)',
    description: 'Returns the values an XPath expression selects in XML text.',
    example: 'FILTERXML(WEBSERVICE(A1), "//rate")',
    reaches: 'calculation',
  },
  ...(
    [
['CUBEVALUE', 'CUBEVALUE(connection, [member_expression1], ...)', 'Returns an aggregated value from an OLAP cube.', 1, 255, 'CUBEVALUE("Sales", "[Measures].[Revenue]")'],
      ['CUBEMEMBER', 'CUBEMEMBER(connection, member_expression, [caption])', 'Returns a member or tuple of an OLAP cube.', 2, 3, 'CUBEMEMBER("Sales", "[Product].[All]")'],
      ['CUBESET', 'CUBESET(connection, set_expression, [caption], [sort_order], [sort_by])', 'Returns a set of members of an OLAP cube.', 2, 5, 'CUBESET("Sales", "[Product].Children")'],
      ['CUBESETCOUNT', 'CUBESETCOUNT(set)', 'Returns the number of items of a cube set.', 1, 1, 'CUBESETCOUNT(A1)'],
      ['CUBERANKEDMEMBER', 'CUBERANKEDMEMBER(connection, set_expression, rank, [caption])', 'Returns the member of a cube set at a rank.', 3, 4, 'CUBERANKEDMEMBER("Sales", A1, 1)'],
      ['CUBEMEMBERPROPERTY', 'CUBEMEMBERPROPERTY(connection, member_expression, property)', 'Returns a property of a member of an OLAP cube.', 3, 3, 'CUBEMEMBERPROPERTY("Sales", "[Product].[Bikes]", "Key")'],
      ['CUBEKPIMEMBER', 'CUBEKPIMEMBER(connection, kpi_name, kpi_property, [caption])', 'Returns a key performance indicator of an OLAP cube.', 3, 4, 'CUBEKPIMEMBER("Sales", "Margin", 1)'],
    ] as const
  ).map(([name, syntax, description, minArgs, maxArgs, example]): Outside => ({ name, category: 'cube', minArgs, maxArgs, syntax, description, example, reaches: 'cube' })),
  {
    name: 'RTD',
    category: 'lookup',
    minArgs: 3,
    maxArgs: 255,
    syntax: 'RTD(prog_id, server, topic1, [topic2], ...)',
    description: 'Returns data from a real-time data server.',
    example: 'RTD("price.server", , "MSFT")',
    reaches: 'rtd',
  },
  {
    name: 'GETPIVOTDATA',
    category: 'lookup',
    minArgs: 2,
    maxArgs: 254,
    syntax: 'GETPIVOTDATA(data_field, pivot_table, [field1, item1], ...)',
    description: 'Returns a value shown in a pivot table.',
    example: 'GETPIVOTDATA("Revenue", A3, "Region", "North")',
    reaches: 'pivot',
  },
  {
    name: 'IMAGE',
    category: 'lookup',
    minArgs: 1,
    maxArgs: 5,
    syntax: 'IMAGE(source, [alt_text], [sizing], [height], [width])',
    description: 'Places in the cell an image fetched from an address.',
    example: 'IMAGE("https://example.com/logo.png", "Logo")',
    reaches: 'web',
  },
  {
    name: 'TRANSLATE',
    category: 'text',
    minArgs: 1,
    maxArgs: 3,
    syntax: 'TRANSLATE(text, [source_language], [target_language])',
    description: 'Returns the text translated into another language.',
    example: 'TRANSLATE("Revenue", "en", "fr")',
    reaches: 'service',
  },
  {
    name: 'DETECTLANGUAGE',
    category: 'text',
    minArgs: 1,
    maxArgs: 1,
    syntax: 'DETECTLANGUAGE(text)',
    description: 'Returns the code of the language the text is written in.',
    example: 'DETECTLANGUAGE("Chiffre d\'affaires")',
    reaches: 'service',
  },
  {
    name: 'CALL',
    category: 'information',
    minArgs: 1,
    maxArgs: 255,
    syntax: 'CALL(register_id, [argument1], ...)',
    description: 'Calls a procedure in a code library.',
    example: 'CALL(A1, 2)',
    reaches: 'addin',
  },
  {
    name: 'REGISTER.ID',
    category: 'information',
    minArgs: 2,
    maxArgs: 3,
    syntax: 'REGISTER.ID(module_text, procedure, [type_text])',
    description: 'Returns the identifier of a procedure in a code library.',
    example: 'REGISTER.ID("user32", "MessageBeep", "JJ")',
    reaches: 'addin',
  },
  {
    name: 'EUROCONVERT',
    category: 'financial',
    minArgs: 3,
    maxArgs: 5,
    syntax: 'EUROCONVERT(number, source, target, [full_precision], [triangulation_precision])',
    description: 'Converts between the euro and the currencies it replaced (Euro Currency Tools add-in).',
    example: 'EUROCONVERT(100, "DEM", "EUR")',
    reaches: 'addin',
  },
  {
    name: 'PHONETIC',
    category: 'text',
    minArgs: 1,
    maxArgs: 1,
    syntax: 'PHONETIC(reference)',
    description: 'Returns the phonetic (furigana) characters stored with Japanese text.',
    example: 'PHONETIC(A1)',
    reaches: 'calculation',
  },
  ...(
    [
['FORECAST.ETS', 'FORECAST.ETS(target_date, values, timeline, [seasonality], [data_completion], [aggregation])', 'Forecasts a value by exponential triple smoothing.', 3, 6, 'FORECAST.ETS(DATE(2025,1,1), B2:B25, A2:A25)'],
      ['FORECAST.ETS.CONFINT', 'FORECAST.ETS.CONFINT(target_date, values, timeline, [confidence_level], [seasonality], [data_completion], [aggregation])', 'Returns the confidence interval of an exponential-smoothing forecast.', 3, 7, 'FORECAST.ETS.CONFINT(DATE(2025,1,1), B2:B25, A2:A25, 0.95)'],
      ['FORECAST.ETS.SEASONALITY', 'FORECAST.ETS.SEASONALITY(values, timeline, [data_completion], [aggregation])', 'Returns the length of the seasonal pattern exponential smoothing finds.', 2, 4, 'FORECAST.ETS.SEASONALITY(B2:B25, A2:A25)'],
      ['FORECAST.ETS.STAT', 'FORECAST.ETS.STAT(values, timeline, statistic_type, [seasonality], [data_completion], [aggregation])', 'Returns a statistic of an exponential-smoothing forecast.', 3, 6, 'FORECAST.ETS.STAT(B2:B25, A2:A25, 1)'],
    ] as const
  ).map(([name, syntax, description, minArgs, maxArgs, example]): Outside => ({ name, category: 'statistical', minArgs, maxArgs, syntax, description, example, reaches: 'calculation' })),
  {
    name: 'GROUPBY',
    category: 'lookup',
    minArgs: 3,
    maxArgs: 8,
    syntax: 'GROUPBY(row_fields, values, function, [field_headers], [total_depth], [sort_order], [filter_array], [field_relationship])',
    description: 'Groups values by row fields and aggregates each group.',
    example: 'GROUPBY(A2:A100, C2:C100, SUM)',
    reaches: 'calculation',
  },
  {
    name: 'PIVOTBY',
    category: 'lookup',
    minArgs: 4,
    maxArgs: 11,
    syntax: 'PIVOTBY(row_fields, col_fields, values, function, ...)',
    description: 'Groups values by row and column fields and aggregates each group.',
    example: 'PIVOTBY(A2:A100, B2:B100, C2:C100, SUM)',
    reaches: 'calculation',
  },
  ...(
    [
      ['BAHTTEXT', 'BAHTTEXT(number)', 'Writes a number as Thai text with the baht currency.', 'BAHTTEXT(1234)'],
      ['ASC', 'ASC(text)', 'Changes full-width (double-byte) characters to half-width.', 'ASC("ＡＢＣ")'],
      ['DBCS', 'DBCS(text)', 'Changes half-width characters to full-width (double-byte).', 'DBCS("ABC")'],
      ['JIS', 'JIS(text)', 'Changes half-width characters to full-width (double-byte), as DBCS does.', 'JIS("ABC")'],
    ] as const
  ).map(([name, syntax, description, example]): Outside => ({ name, category: 'text', minArgs: 1, maxArgs: 1, syntax, description, example, reaches: 'calculation' })),
]

/** A byte-counting text function: in a language without double-byte characters it counts characters. */
function bytes(plain: FunctionDefinition, name: string, syntax: string): FunctionDefinition {
  return omittedAsEmpty({
    ...plain,
    name,
    syntax,
    description: `${plain.description} Counts bytes, which are characters outside double-byte languages.`,
    example: plain.example.replace(plain.name, name),
  })
}


export const ENCODEURL: FunctionDefinition = {
  name: 'ENCODEURL',
  category: 'web',
  minArgs: 1,
  maxArgs: 1,
  args: ['text'],
  syntax: 'ENCODEURL(text)',
  description: 'Returns the text encoded for a web address: characters other than letters, digits and - _ . ~ as %XX.',
  example: 'ENCODEURL("net debt / EBITDA")',
  impl: ([text]) => {
    // encodeURIComponent writes each UTF-8 byte as %XX but leaves ! ' ( ) * alone, which ENCODEURL encodes.
    try {
      return encodeURIComponent(text as string).replace(/[!'()*]/g, (ch) => '%' + ch.charCodeAt(0).toString(16).toUpperCase())
    } catch {
      // Half of a surrogate pair has no UTF-8 form.
      return CellError.VALUE
    }
  },
}

export const PERCENTOF: FunctionDefinition = {
  name: 'PERCENTOF',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['any', 'any'],
  resultFormat: '0%',
  syntax: 'PERCENTOF(data_subset, data_all)',
  description: 'Returns the sum of a subset of values as a share of the sum of all of them.',
  example: 'PERCENTOF(B2:B4, B2:B10)',
  impl: ([subset, all]) => {
    let part = 0
    let total = 0
    const error = forEachNumber([subset], (n) => (part += n)) ?? forEachNumber([all], (n) => (total += n))
    if (error) return error
    return total === 0 ? CellError.DIV0 : (part / total as Scalar)
  },
}

export const functions: readonly FunctionDefinition[] = [
  ...OUTSIDE.map(outside),
  bytes(LEN, 'LENB', 'LENB(text)'),
  bytes(LEFT, 'LEFTB', 'LEFTB(text, [num_bytes])'),
  bytes(RIGHT, 'RIGHTB', 'RIGHTB(text, [num_bytes])'),
  bytes(MID, 'MIDB', 'MIDB(text, start_num, num_bytes)'),
  bytes(FIND, 'FINDB', 'FINDB(find_text, within_text, [start_num])'),
  bytes(SEARCH, 'SEARCHB', 'SEARCHB(find_text, within_text, [start_num])'),
  bytes(REPLACE, 'REPLACEB', 'REPLACEB(old_text, start_num, num_bytes, new_text)'),
  ENCODEURL,
  PERCENTOF,
]
