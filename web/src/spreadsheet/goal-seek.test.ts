import { describe, expect, it } from 'vitest'
import { WorkbookStore } from '../workbook/workbook-store'
import { GOAL_SEEK_MAX_EVALUATIONS, goalSeek, GoalSeekError, goalSeekStatus, solve } from './goal-seek'

describe('solve', () => {
  it('solves a linear model in a few steps', () => {
    const result = solve((x) => 3 * x + 2, 11, 0)
    expect(result.found).toBe(true)
    expect(result.input).toBeCloseTo(3, 9)
    expect(result.evaluations).toBeLessThan(6)
  })

  it('solves nonlinear models, from a start far away too', () => {
    expect(solve((x) => x ** 3, 8, 100).input).toBeCloseTo(2, 8)
    expect(solve((x) => Math.exp(x), 1000, 0).input).toBeCloseTo(Math.log(1000), 8)
  })

  it('brackets and bisects where the secant steps fail: flat stretches, inputs with no value', () => {
    // flat at the start: the secant cannot take a step
    const flat = solve((x) => (x < 5 ? 0 : x - 5), 2, 0)
    expect(flat.found).toBe(true)
    expect(flat.input).toBeCloseTo(7, 6)
    // no number below zero (a square root): the search stays where the model has values
    const root = solve((x) => (x < 0 ? null : Math.sqrt(x)), 3, 1)
    expect(root.found).toBe(true)
    expect(root.input).toBeCloseTo(9, 6)
  })

  it('reports no solution, with the closest input, when the target cannot be met', () => {
    const never = solve((x) => x * x + 1, 0, 3)
    expect(never.found).toBe(false)
    expect(Math.abs(never.input)).toBeLessThan(0.1)
    expect(never.evaluations).toBeLessThanOrEqual(GOAL_SEEK_MAX_EVALUATIONS)
    // a jump across the target (a step function): the bisection closes on the jump, not on a root
    expect(solve((x) => (x < 1 ? -1 : 1), 0, 0).found).toBe(false)
    expect(solve(() => null, 1, 0).found).toBe(false)
  })
})

function npvModel(): WorkbookStore {
  return new WorkbookStore({
    id: 'w',
    sheets: [
      {
        name: 'DCF',
        cells: {
          A1: { input: 'Rate' },
          B1: { input: '0.1' },
          C1: { input: '-1000' },
          C2: { input: '300' },
          C3: { input: '400' },
          C4: { input: '500' },
          A10: { input: 'NPV' },
          B10: { input: '=NPV(B1,C2:C4)+C1' },
          B11: { input: '=IRR(C1:C4)' },
          B12: { input: '=B1*2' },
        },
      },
      { name: 'Plan', cells: { A1: { input: '50' }, B1: { input: '=DCF!B12+A1' } } },
    ],
  })
}

describe('goalSeek on a workbook', () => {
  it('finds the rate at which an NPV is zero, on a copy: the workbook is untouched until the answer is applied', () => {
    const store = npvModel()
    const outcome = goalSeek(store, { setCell: 'B10', toValue: '0', changingCell: 'B1' }, 'DCF')
    const irr = store.getValue('DCF', { col: 1, row: 10 }) as number
    expect(outcome.found).toBe(true)
    expect(outcome.input).toBeCloseTo(irr, 8)
    expect(Number(outcome.currentValue)).toBeCloseTo(0, 3)
    expect(goalSeekStatus(outcome)).toBe('Goal Seeking with Cell B10 found a solution.')
    expect(store.getInput('DCF', { col: 1, row: 0 })).toBe('0.1')
    expect(store.canUndo).toBe(false)

    store.dispatch(outcome.command)
    expect(store.getValue('DCF', { col: 1, row: 0 })).toBeCloseTo(irr, 8)
    expect(Math.abs(store.getValue('DCF', { col: 1, row: 9 }) as number)).toBeLessThan(0.001)
    store.undo()
    expect(store.getInput('DCF', { col: 1, row: 0 })).toBe('0.1')
  })

  it('solves a linear target across sheets, with the cells named as typed', () => {
    const store = npvModel()
    const outcome = goalSeek(store, { setCell: 'Plan!$B$1', toValue: '1,000', changingCell: 'DCF!B1' }, 'DCF')
    expect(outcome.setCell.label).toBe('Plan!B1')
    expect(outcome.changingCell).toEqual({ sheet: 'DCF', address: 'B1', label: 'B1' })
    expect(outcome.input).toBeCloseTo(475, 6)
    expect(outcome.command).toEqual({ type: 'set-cells', sheet: 'DCF', cells: [{ address: 'B1', input: outcome.input }] })
  })

  it('says when no solution was found', () => {
    const store = new WorkbookStore({ id: 'w', sheets: [{ name: 'S', cells: { A1: { input: '2' }, B1: { input: '=A1^2+1' } } }] })
    const outcome = goalSeek(store, { setCell: 'B1', toValue: '0', changingCell: 'A1' }, 'S')
    expect(outcome.found).toBe(false)
    expect(goalSeekStatus(outcome)).toBe('Goal Seeking with Cell B1 may not have found a solution.')
  })

  it('refuses a set cell that is not a formula, a changing cell that is, and a target that is not a number', () => {
    const store = npvModel()
    const refused = (request: { setCell: string; toValue: string; changingCell: string }) => {
      try {
        goalSeek(store, request, 'DCF')
        return null
      } catch (error) {
        expect(error).toBeInstanceOf(GoalSeekError)
        return (error as Error).message
      }
    }
    expect(refused({ setCell: 'C2', toValue: '0', changingCell: 'B1' })).toBe('Set cell must contain a formula: C2 does not.')
    expect(refused({ setCell: 'B10', toValue: '0', changingCell: 'B12' })).toBe('By changing cell must contain a value, not a formula: B12 holds =B1*2.')
    expect(refused({ setCell: 'B10', toValue: 'zero', changingCell: 'B1' })).toBe('To value must be a number.')
    expect(refused({ setCell: 'B10:B11', toValue: '0', changingCell: 'B1' })).toBe('Set cell must be a single cell, such as B10.')
    expect(refused({ setCell: 'Nowhere!B10', toValue: '0', changingCell: 'B1' })).toBe('There is no sheet named Nowhere.')
  })
})
