/** What the benchmark commands share about their command lines. */

/** The exit code of a run refused for its arguments (1 is a run that found failures). */
const EXIT_USAGE = 2;

/** An argument the command cannot take; its message names the argument. */
export class UsageError extends Error {}

/** The options `parse` reads from this process's arguments; on a {@link UsageError}, the message and `usage`, then exit 2. */
export function optionsOrExit<T>(parse: (argv: string[]) => T, usage: string): T {
  try {
    return parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${usage}`);
    process.exit(EXIT_USAGE);
  }
}
