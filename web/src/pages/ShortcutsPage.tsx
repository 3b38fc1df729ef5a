import { shortcutSections } from '../actions/shortcut-rows'
import { spreadsheetActions } from '../actions/spreadsheet-actions'

/** Every key of the app, from the action registry: the essentials first, then each group. */
export function ShortcutsPage() {
  const sections = shortcutSections(spreadsheetActions)
  return (
    <div className="page">
      <header className="page-header">
        <h1>Keyboard Shortcuts</h1>
        <p>Everything in the grid works from the keyboard.</p>
      </header>
      <div className="shortcut-groups">
        {sections.map((section) => (
          <section key={section.title} className="card">
            <h2>{section.title}</h2>
            <table className="shortcut-table">
              <tbody>
                {section.rows.map((row) => (
                  <tr key={`${row.keys} ${row.action}`}>
                    <td>
                      {row.keys.split(' / ').map((k, i) => (
                        <span key={k}>
                          {i > 0 && ' / '}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </td>
                    <td>{row.action}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
    </div>
  )
}
