import { describe, expect, it } from 'vitest'
import { isModelCreationCommand } from '@finsheet/contracts'
import { describeModelRequest, readModelCommand, UNNAMED_COMPANY } from './model-command.js'

describe('readModelCommand', () => {
  it('reads the model type, the company and the parameters a command names', () => {
    const command = 'create a DCF model for Acme with 7 years and 3% terminal growth'
    expect(isModelCreationCommand(command)).toBe(true)
    expect(readModelCommand(command)).toEqual({ modelType: 'dcf', companyName: 'Acme', parameters: { projectionYears: 7, terminalGrowthRate: 3 } })
    expect(readModelCommand('Build an LBO for "Northwind Traders, Inc." over a 10-year horizon, WACC of 9.5% and revenue growth of 12%')).toEqual({
      modelType: 'lbo',
      companyName: 'Northwind Traders, Inc.',
      parameters: { projectionYears: 10, terminalGrowthRate: 2.5, discountRate: 9.5, revenueGrowthRate: 12 },
    })
    expect(readModelCommand('Generate a leveraged buyout model of Contoso Ltd. assuming 25% tax')).toMatchObject({ modelType: 'lbo', companyName: 'Contoso Ltd', parameters: { taxRate: 25 } })
    expect(readModelCommand('make a three-statement financial model for Tesla, 5 yrs, 2% perpetual growth')).toMatchObject({
      modelType: 'three-statement',
      companyName: 'Tesla',
      parameters: { projectionYears: 5, terminalGrowthRate: 2 },
    })
    expect(readModelCommand('Develop a SaaS valuation for Globex at a 10% discount rate').parameters).toMatchObject({ discountRate: 10 })
    expect(readModelCommand('Develop a SaaS valuation for Globex at a 10% discount rate').modelType).toBe('saas')
  })

  it('takes the defaults, and a generic company, for what the command leaves out', () => {
    expect(readModelCommand('Create a DCF model')).toEqual({ modelType: 'dcf', companyName: UNNAMED_COMPANY, parameters: { projectionYears: 5, terminalGrowthRate: 2.5 } })
    expect(readModelCommand('Create a DCF model for [company name]').companyName).toBe(UNNAMED_COMPANY)
    expect(readModelCommand('build a valuation model for my company').companyName).toBe(UNNAMED_COMPANY)
    expect(readModelCommand('build a financial model for the company').modelType).toBe('dcf')
  })

  it('describes the request for the panel', () => {
    expect(describeModelRequest(readModelCommand('create a DCF model for Acme with 7 years and 3% terminal growth'))).toBe('a DCF model for Acme (7 years, 3% terminal growth)')
    expect(describeModelRequest(readModelCommand('build an LBO model for Initech at 9% WACC'))).toBe('an LBO model for Initech (5 years, 2.5% terminal growth, 9% discount rate)')
  })
})
