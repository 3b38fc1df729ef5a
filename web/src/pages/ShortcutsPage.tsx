import { SHORTCUTS } from '../shell/navigation-items'

export function ShortcutsPage() {
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))]
  return (
    <div className="page">
      <header className="page-header">
        <h1>Keyboard Shortcuts</h1>
        <p>Everything in the grid works from the keyboard.</p>
      </header>
      <div className="shortcut-groups">
        {groups.map((group) => (
          <section key={group} className="card">
            <h2>{group}</h2>
            <table className="shortcut-table">
              <tbody>
                {SHORTCUTS.filter((s) => s.group === group).map((s) => (
                  <tr key={s.keys}>
                    <td>
                      {s.keys.split(' / ').map((k, i) => (
                        <span key={k}>
                          {i > 0 && ' / '}
                          <kbd>{k}</kbd>
                        </span>
                      ))}
                    </td>
                    <td>{s.action}</td>
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
