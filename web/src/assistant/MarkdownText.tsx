import Markdown from 'react-markdown'
import remarkGfm from 'remark-gfm'

/** Links in answers open beside the app. */
const markdownComponents = {
  a: ({ href, children }: { href?: string; children?: React.ReactNode }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
}

/** An answer's text rendered from its Markdown (GitHub's flavour: tables, lists, links). */
export default function MarkdownText({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} components={markdownComponents}>
      {text}
    </Markdown>
  )
}
