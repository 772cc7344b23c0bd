import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The command lines of the server and of every script (src/cli, tools, bench) read the
 * same way: `--help` (or `-h`) prints the usage and exits 0; an unknown option, a
 * malformed one or a bad value prints what is wrong and the usage to stderr and exits 2,
 * before the command does any work.
 */

/** The exit code of a run refused for its arguments (1 is a run that failed). */
export const EXIT_USAGE = 2;

/** An argument the command cannot take; its message names the argument. */
export class UsageError extends Error {}

/** What `parseArgs` makes of a command line with `T`'s options. */
export type Parsed<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** What a command line asks for: its options to run with, or an answer to print before exiting. */
export type CommandLine<R> = { run: R } | { exit: 0 | typeof EXIT_USAGE; text: string };

/**
 * Parses `args` with `config` (strict: unknown options are refused) plus `--help`, then
 * `check` turns the values into the command's options and throws {@link UsageError} for
 * a bad one. Exits nothing: {@link commandLineOrExit} does, for a process of its own.
 */
export function readCommandLine<T extends ParseArgsConfig, R>(usage: string, config: T, args: string[], check: (parsed: Parsed<T>) => R): CommandLine<R> {
  let parsed: Parsed<T>;
  try {
    parsed = parseArgs({ ...config, args, strict: true, options: { ...config.options, help: { type: 'boolean', short: 'h' } } }) as Parsed<T>;
  } catch (error) {
    return { exit: EXIT_USAGE, text: `${(error as Error).message}\n\n${usage}` };
  }
  if ((parsed.values as { help?: boolean }).help) return { exit: 0, text: usage };
  try {
    return { run: check(parsed) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { exit: EXIT_USAGE, text: `${error.message}\n\n${usage}` };
  }
}

/** {@link readCommandLine} over this process's arguments: prints the usage and exits when it answers instead of running. */
export function commandLineOrExit<T extends ParseArgsConfig, R = Parsed<T>>(
  usage: string,
  config: T,
  check: (parsed: Parsed<T>) => R = (parsed) => parsed as R,
): R {
  const line = readCommandLine(usage, config, process.argv.slice(2), check);
  if ('run' in line) return line.run;
  process.exit(printAnswer(line));
}

/** Prints a command line's answer instead of a run: the usage asked for to stdout, a refusal to stderr. Returns the exit code. */
export function printAnswer(answer: Exclude<CommandLine<unknown>, { run: unknown }>, output: Pick<Console, 'log' | 'error'> = console): number {
  if (answer.exit === 0) output.log(answer.text);
  else output.error(answer.text);
  return answer.exit;
}

/** `text` as a whole number from `min` to `max`, for the option `flag`; plain decimal digits only. */
export function integerOption(flag: string, text: string, min: number, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(value) && value >= min && value <= max)) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

/** `text` as a decimal number above 0 and at most `max`, for the option `flag`. */
export function positiveNumberOption(flag: string, text: string, max: number): number {
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(value > 0 && value <= max)) throw new UsageError(`${flag} must be a number above 0 and at most ${max}, got "${text}"`);
  return value;
}
