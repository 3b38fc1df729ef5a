import { describe, expect, it } from 'vitest'
import { calc, calcArray } from '../math/engine-test-kit.js'

describe('pieces of text', () => {
  it('LEN, LEFT, RIGHT and MID count characters', () => {
    expect(calc('LEN("Phoenix, AZ")')).toBe(11)
    expect(calc('LEN(A1)', { A1: 12.5 })).toBe(4)
    expect(calc('LEFT("Sale Price", 4)')).toBe('Sale')
    expect(calc('LEFT("Sweden")')).toBe('S')
    expect(calc('LEFT("abc", -1)')).toBe('#VALUE!')
    expect(calc('RIGHT("Stock Number", 6)')).toBe('Number')
    expect(calc('RIGHT("abc", 10)')).toBe('abc')
    expect(calc('MID("Fluid Flow", 7, 20)')).toBe('Flow')
    expect(calc('MID("Fluid Flow", 20, 5)')).toBe('')
    expect(calc('MID("Fluid Flow", 0, 5)')).toBe('#VALUE!')
  })

  it('FIND is case-sensitive; SEARCH ignores case and takes wildcards', () => {
    expect(calc('FIND("M", "Miriam McGovern")')).toBe(1)
    expect(calc('FIND("m", "Miriam McGovern")')).toBe(6)
    expect(calc('FIND("M", "Miriam McGovern", 3)')).toBe(8)
    expect(calc('FIND("z", "abc")')).toBe('#VALUE!')
    expect(calc('FIND("", "abc", 2)')).toBe(2)
    expect(calc('FIND("a", "abc", 5)')).toBe('#VALUE!')
    expect(calc('SEARCH("e", "Statements", 6)')).toBe(7)
    expect(calc('SEARCH("MARGIN", "Profit Margin")')).toBe(8)
    expect(calc('SEARCH("p?o", "The proof")')).toBe(5)
    expect(calc('SEARCH("t*f", "The proof")')).toBe(1)
    expect(calc('SEARCH("~*", "5*3")')).toBe(2)
    expect(calc('SEARCH("~d", "My dear")')).toBe(4)
  })

  it('SUBSTITUTE and REPLACE', () => {
    expect(calc('SUBSTITUTE("Sales Data", "Sales", "Cost")')).toBe('Cost Data')
    expect(calc('SUBSTITUTE("Quarter 1, 2008", "1", "2", 1)')).toBe('Quarter 2, 2008')
    expect(calc('SUBSTITUTE("Quarter 1, 2011", "1", "2", 3)')).toBe('Quarter 1, 2012')
    expect(calc('SUBSTITUTE("aaa", "a", "b", 4)')).toBe('aaa')
    expect(calc('SUBSTITUTE("aaa", "a", "b", 0)')).toBe('#VALUE!')
    expect(calc('REPLACE("abcdefghijk", 6, 5, "*")')).toBe('abcde*k')
    expect(calc('REPLACE("2009", 3, 2, "10")')).toBe('2010')
    expect(calc('REPLACE("abc", 0, 1, "x")')).toBe('#VALUE!')
  })

  it('TRIM, UPPER, LOWER, PROPER, REPT, EXACT, CLEAN, T', () => {
    expect(calc('TRIM("  First   Quarter Earnings ")')).toBe('First Quarter Earnings')
    expect(calc('UPPER("total")')).toBe('TOTAL')
    expect(calc('UPPER("straße ﬁnal")')).toBe('STRAßE ﬁNAL')
    expect(calc('LOWER("E. E. Cummings")')).toBe('e. e. cummings')
    expect(calc('PROPER("this is a TITLE")')).toBe('This Is A Title')
    expect(calc('PROPER("2-way street")')).toBe('2-Way Street')
    expect(calc('PROPER("76BudGet")')).toBe('76Budget')
    expect(calc('REPT("*-", 3)')).toBe('*-*-*-')
    expect(calc('REPT("x", -1)')).toBe('#VALUE!')
    expect(calc('REPT("ab", 20000)')).toBe('#VALUE!')
    expect(calc('EXACT("Word", "word")')).toBe(false)
    expect(calc('EXACT("word", "word")')).toBe(true)
    expect(calc('CLEAN(CHAR(9)&"Monthly report"&CHAR(10))')).toBe('Monthly report')
    expect(calc('T("Rainfall")')).toBe('Rainfall')
    expect(calc('T(19)')).toBe('')
    expect(calc('T(1/0)')).toBe('#DIV/0!')
  })
})

describe('joining text', () => {
  const cells = { A1: 'a', A2: 'b', B1: 1, B2: true, C1: '' }

  it('CONCAT joins ranges row by row; CONCATENATE joins its arguments', () => {
    expect(calc('CONCAT(A1:B2)', cells)).toBe('a1bTRUE')
    expect(calc('CONCAT("x", A1:A2, 1.5)', cells)).toBe('xab1.5')
    expect(calc('CONCAT(A1, 1/0)', cells)).toBe('#DIV/0!')
    expect(calc('CONCATENATE("Stream ", "population ", 32)')).toBe('Stream population 32')
  })

  it('TEXTJOIN puts delimiters between texts, skipping empty ones on request', () => {
    expect(calc('TEXTJOIN(", ", TRUE, A1:C2)', cells)).toBe('a, 1, b, TRUE')
    expect(calc('TEXTJOIN("-", FALSE, A1:A2, C1)', cells)).toBe('a-b-')
    expect(calc('TEXTJOIN({"+","="}, TRUE, 1, 2, 3)')).toBe('1+2=3')
    expect(calc('TEXTJOIN(",", TRUE, A1, NA())', cells)).toBe('#N/A')
  })
})

describe('characters', () => {
  it('CHAR and CODE use the Windows character set', () => {
    expect(calc('CHAR(65)')).toBe('A')
    expect(calc('CHAR(128)')).toBe('€')
    expect(calc('CHAR(0)')).toBe('#VALUE!')
    expect(calc('CHAR(256)')).toBe('#VALUE!')
    expect(calc('CODE("A")')).toBe(65)
    expect(calc('CODE("€")')).toBe(128)
    expect(calc('CODE("")')).toBe('#VALUE!')
  })

  it('UNICHAR and UNICODE use code points', () => {
    expect(calc('UNICHAR(66)')).toBe('B')
    expect(calc('UNICHAR(128512)')).toBe('😀')
    expect(calc('UNICODE("😀")')).toBe(128512)
    expect(calc('UNICHAR(0)')).toBe('#VALUE!')
    expect(calc('UNICHAR(55296)')).toBe('#N/A')
  })
})

describe('numbers and text', () => {
  it('VALUE reads numbers, amounts, percentages, dates and times', () => {
    expect(calc('VALUE("$1,000")')).toBe(1000)
    expect(calc('VALUE("16:48:00")-VALUE("12:00:00")')).toBeCloseTo(0.2, 12)
    expect(calc('VALUE("40%")')).toBe(0.4)
    expect(calc('VALUE("23€")')).toBe(23)
    expect(calc('VALUE("")')).toBe('#VALUE!')
    expect(calc('VALUE(TRUE)')).toBe('#VALUE!')
    expect(calc('VALUE(A1)')).toBe(0)
  })

  it('NUMBERVALUE takes the separators it is given', () => {
    expect(calc('NUMBERVALUE("2.500,27", ",", ".")')).toBe(2500.27)
    expect(calc('NUMBERVALUE("3.5%")')).toBe(0.035)
    expect(calc('NUMBERVALUE("")')).toBe(0)
    expect(calc('NUMBERVALUE(, ".")')).toBe(0)
    expect(calc('NUMBERVALUE("1,5.2", ".", ",")')).toBe(15.2)
    expect(calc('NUMBERVALUE("1.2,3", ".", ",")')).toBe('#VALUE!')
  })

  it('TEXT formats with number format codes', () => {
    expect(calc('TEXT(1234.567, "$#,##0.00")')).toBe('$1,234.57')
    expect(calc('TEXT(0.285, "0.0%")')).toBe('28.5%')
    expect(calc('TEXT(45322, "yyyy-mm-dd")')).toBe('2024-01-31')
    expect(calc('TEXT("1234", "#,##0")')).toBe('1,234')
    expect(calc('TEXT(-1/3, "General")')).toBe('-0.333333333')
    expect(calc('TEXT(45322, "mm###")')).toBe('#VALUE!')
    expect(calc('TEXT(-1, "yyyy-mm-dd")')).toBe('#VALUE!')
  })

  it('FIXED and DOLLAR round and group digits', () => {
    expect(calc('FIXED(1234.567, 1)')).toBe('1,234.6')
    expect(calc('FIXED(1234.567, -1)')).toBe('1,230')
    expect(calc('FIXED(-1234.567, -1, TRUE)')).toBe('-1230')
    expect(calc('FIXED(44.332)')).toBe('44.33')
    expect(calc('DOLLAR(1234.567, 2)')).toBe('$1,234.57')
    expect(calc('DOLLAR(-1234.567, -2)')).toBe('($1,200)')
    expect(calc('DOLLAR(0.123, 4)')).toBe('$0.1230')
  })

  it('VALUETOTEXT and ARRAYTOTEXT, concise and strict', () => {
    expect(calc('VALUETOTEXT("Hello")')).toBe('Hello')
    expect(calc('VALUETOTEXT("Hello", 1)')).toBe('"Hello"')
    expect(calc('VALUETOTEXT(1/0)')).toBe('#DIV/0!')
    expect(calc('VALUETOTEXT(TRUE, 2)')).toBe('#VALUE!')
    expect(calc('ARRAYTOTEXT({1,"a";TRUE,2})')).toBe('1, a, TRUE, 2')
    expect(calc('ARRAYTOTEXT({1,"a";TRUE,2}, 1)')).toBe('{1,"a";TRUE,2}')
  })
})

describe('cutting text', () => {
  const text = '123 the 456 the 891'

  it('TEXTBEFORE and TEXTAFTER count instances from either end', () => {
    expect(calc(`TEXTBEFORE("${text}", "the")`)).toBe('123 ')
    expect(calc(`TEXTAFTER("${text}", "the", 2)`)).toBe(' 891')
    expect(calc(`TEXTAFTER("${text}", "the", -1)`)).toBe(' 891')
    expect(calc(`TEXTBEFORE("${text}", "THE", 1, 1)`)).toBe('123 ')
    expect(calc(`TEXTAFTER("${text}", "x")`)).toBe('#N/A')
    expect(calc(`TEXTAFTER("${text}", "x", 1, 0, 0, "none")`)).toBe('none')
    expect(calc(`TEXTAFTER("${text}", "the", 0)`)).toBe('#VALUE!')
    expect(calc('TEXTBEFORE("Email - me@example.com", "- ", -1, , 1)')).toBe('Email ')
    expect(calc('TEXTAFTER("no dash", "- ", -1, , 1)')).toBe('no dash')
    expect(calc('TEXTBEFORE("a,b;c", {",",";"}, 2)')).toBe('a,b')
  })

  it('TEXTSPLIT makes rows and columns, padding short rows', () => {
    expect(calcArray('TEXTSPLIT("a,b;c", ",", ";")', 2, 2)).toEqual([
      ['a', 'b'],
      ['c', '#N/A'],
    ])
    expect(calcArray('TEXTSPLIT("a,,b", ",", , TRUE)', 1, 2)).toEqual([['a', 'b']])
    expect(calcArray('TEXTSPLIT("1 2", " ", , , , "-")', 1, 2)).toEqual([['1', '2']])
    expect(calc('TEXTSPLIT("abc", "")')).toBe('#VALUE!')
  })
})

describe('regular expressions', () => {
  it('REGEXTEST, REGEXEXTRACT and REGEXREPLACE', () => {
    expect(calc('REGEXTEST("Mr. Sherlock Holmes", "[A-Z]her")')).toBe(true)
    expect(calc('REGEXTEST("abc", "B")')).toBe(false)
    expect(calc('REGEXTEST("abc", "B", 1)')).toBe(true)
    expect(calc('REGEXEXTRACT("LonelyPlanet", "[A-Z][a-z]+")')).toBe('Lonely')
    expect(calcArray('REGEXEXTRACT("LonelyPlanet", "[A-Z][a-z]+", 1)', 1, 2)).toEqual([['Lonely', 'Planet']])
    expect(calcArray('REGEXEXTRACT("2024-05", "(\\d+)-(\\d+)", 2)', 1, 2)).toEqual([['2024', '05']])
    expect(calc('REGEXEXTRACT("abc", "\\d")')).toBe('#N/A')
    expect(calc('REGEXREPLACE("JamesBond", "([A-Z][a-z]+)([A-Z][a-z]+)", "$2, $1 $2")')).toBe('Bond, James Bond')
    expect(calc('REGEXREPLACE("a1b2c3", "\\d", "#", 2)')).toBe('a1b#c3')
    expect(calc('REGEXREPLACE("a1b2c3", "\\d", "#", -1)')).toBe('a1b2c#')
    expect(calc('REGEXTEST("abc", "(")')).toBe('#VALUE!')
  })
})

describe('numbers joined into text', () => {
  it('write up to 15 significant digits, and switch to scientific form past 15 integer digits', () => {
    expect(calc('123456789012345&""')).toBe('123456789012345')
    expect(calc('1E+15&""')).toBe('1E+15')
    expect(calc('123456789012345678&""')).toBe('1.23456789012346E+17')
    expect(calc('-2^53&""')).toBe('-9.00719925474099E+15')
    expect(calc('1/3&""')).toBe('0.333333333333333')
    expect(calc('1E-20&""')).toBe('1E-20')
  })
})
