/** The process entry of the `finsheet` command (bin/finsheet.js imports the compiled file). */
import { runCli } from './main.js'

process.exitCode = await runCli(process.argv.slice(2), process.stdout, process.stderr)
