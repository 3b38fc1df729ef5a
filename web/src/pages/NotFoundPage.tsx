import { Link } from '@tanstack/react-router'

export function NotFoundPage() {
  return (
    <main className="not-found">
      <h1>404 Page Not Found</h1>
      <p>Did you forget to add the page to the router?</p>
      <Link to="/" className="button primary">
        Back to the spreadsheet
      </Link>
    </main>
  )
}
