import './harness-types.js'
import type { Page } from 'playwright-core'

/**
 * The visible controls of the page that have no accessible name (no aria-label, labelling
 * element, label, text, title or placeholder), described by tag and class so a failure points
 * at them.
 */
export function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'button, a[href], input:not([type=hidden]), select, textarea, [role=menuitem], [role=tab], [role=option], [role=gridcell], [role=combobox]'
    const nameOf = (element: Element): string => {
      const label = element.getAttribute('aria-label')
      if (label?.trim()) return label
      const labelledBy = element.getAttribute('aria-labelledby')
      if (labelledBy) {
        const text = labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
        if (text.trim()) return text
      }
      if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) {
        const labels = element.labels ? Array.from(element.labels).map((l) => l.textContent ?? '').join(' ') : ''
        if (labels.trim()) return labels
        if (element.getAttribute('placeholder')?.trim()) return element.getAttribute('placeholder')!
      }
      const text = (element as HTMLElement).innerText?.trim()
      if (text) return text
      return element.getAttribute('title')?.trim() ?? ''
    }
    const visible = (element: Element) => {
      const box = (element as HTMLElement).getBoundingClientRect()
      const style = getComputedStyle(element)
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none'
    }
    return Array.from(document.querySelectorAll(selector))
      .filter((element) => visible(element) && nameOf(element) === '')
      .map((element) => `${element.tagName.toLowerCase()}.${(element as HTMLElement).className || '(no class)'}`)
  })
}
