/**
 * A tool call that cannot be done as asked (an address that does not resolve, a refused overwrite):
 * its message goes back to the model as the tool's result, so that it can correct itself. It never
 * becomes an error of the request.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ToolError'
  }
}
