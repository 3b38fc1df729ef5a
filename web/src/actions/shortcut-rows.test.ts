import { describe, expect, it } from 'vitest'
import { ESSENTIAL_SHORTCUTS, shortcutSections } from './shortcut-rows'
import { spreadsheetActions } from './spreadsheet-actions'

describe('shortcutSections', () => {
  const sections = shortcutSections(spreadsheetActions)

  it('lists the essentials first, in their order', () => {
    expect(sections[0].title).toBe('Essentials')
    expect(sections[0].rows.map((row) => row.keys)).toEqual(['Tab', 'Shift+Tab', 'Ctrl+PgUp/PgDn', 'Ctrl+G', 'Home', 'Ctrl+End', 'Alt+A', 'Alt+V', 'Alt+M', 'Alt+F', 'Alt+D', 'Alt+S'])
    expect(sections[0].rows[2].action).toBe('Previous / next sheet')
    expect(sections[0].rows[6].action).toBe('Open or close the AI assistant')
    expect(sections[0].rows[10].action).toBe('Insights (data)')
  })

  it('adds every other action that has keys, once, by group', () => {
    const listed = sections.slice(1).flatMap((section) => section.rows.map((row) => row.action))
    const essentials = new Set(ESSENTIAL_SHORTCUTS.flatMap((entry) => entry.ids))
    const withKeys = spreadsheetActions.actions.filter((action) => !essentials.has(action.id) && (action.keys || action.shortcut))
    expect(listed).toEqual(expect.arrayContaining(withKeys.map((action) => action.label)))
    expect(listed).toHaveLength(withKeys.length)
    const bold = sections.find((section) => section.title === 'Formatting')!.rows.find((row) => row.action === 'Bold')
    expect(bold?.keys).toBe('Ctrl+B')
    expect(sections.find((section) => section.title === 'Editing')!.rows).toContainEqual({ keys: 'Ctrl+Y / Ctrl+Shift+Z', action: 'Redo' })
  })
})
