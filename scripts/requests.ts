/** The operators' tool for capability requests; everything it does is in `requests-cli.ts`. */
import { runRequestsCli } from './requests-cli.js';

process.exitCode = await runRequestsCli(process.argv.slice(2), process.env);
